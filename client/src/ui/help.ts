// The help overlay listing the keyboard shortcuts (handled in ./keyboard.ts), and the night tint.
import { GAME_MS_PER_HOUR } from '@protocol/time';
export const SHORTCUTS: Array<[string, string]> = [
  ['drag / arrows', 'pan the map'],
  ['wheel, + / −', 'zoom'],
  ['0', 'the whole town'],
  ['A', 'auto-follow whoever is talking or acting (on until you pan, zoom or pick someone)'],
  ['click an agent', 'follow it and open the inspector'],
  ['Esc', 'leave a text field; close the world list, the help, the tools or the inspector'],
  ['F', 'find an agent by name (Enter goes to them)'],
  ['Space', 'pause / resume (operators); play / pause a replay'],
  ['[ ]', 'replay from the previous / next marker on the timeline'],
  ['L', 'back to the live town (from a replay)'],
  ['W', 'replay another world file'],
  ['1 2 3 4 5', 'speed 1×, 2×, 5×, 10×, max (operators)'],
  ['T', 'operator tools: inject an event, add an agent'],
  ['?', 'this help'],
];

export function buildHelp(root: HTMLElement): void {
  const h = document.createElement('h2');
  h.textContent = 'Keyboard shortcuts';
  const table = document.createElement('table');
  for (const [key, what] of SHORTCUTS) {
    const tr = document.createElement('tr');
    const k = document.createElement('td');
    k.innerHTML = `<kbd>${key}</kbd>`;
    const w = document.createElement('td');
    w.textContent = what;
    tr.append(k, w);
    table.append(tr);
  }
  const close = document.createElement('p');
  close.className = 'muted';
  close.textContent = 'Press ? or Esc to close.';
  root.append(h, table, close);
}

/** Darkness over the town by game hour: night 0.5, day 0, with dawn and dusk between. */
export function nightAlpha(gameMs: number): number {
  const h = ((gameMs / GAME_MS_PER_HOUR) % 24 + 24) % 24;
  if (h >= 7 && h < 18) return 0;
  if (h >= 21 || h < 5) return 0.5;
  if (h < 7) return 0.5 * (1 - (h - 5) / 2);
  return 0.5 * ((h - 18) / 3);
}
