// The world picker: every world file in DATA_DIR and its backups (the live towns, headless runs,
// backups), with its span, agents, mind and size. Picking one opens its replay on its own page
// (`/?world=<id>&t=<its end>`), its map included; a file that cannot be replayed shows why and cannot
// be picked. Read-only: nothing here needs the operator token.
import type { WorldFileListing } from '@protocol/replay';
import { formatGameTime, formatIsoMinute } from '@protocol/time';
import { fetchWorlds } from '../net/api';
import { el } from './dom';

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The page that replays a world file at a moment (the end of its span when none is given). */
export function replayUrl(world: string, gameMs: number | null): string {
  const q = new URLSearchParams({ world });
  if (gameMs !== null) q.set('t', formatIsoMinute(gameMs));
  return `/?${q.toString()}`;
}

export class WorldPicker {
  private readonly list = el('tbody');
  private readonly note = el('p', { className: 'muted' });
  readonly root: HTMLElement;

  constructor(private readonly current: () => string | null) {
    const close = el('button', { type: 'button', className: 'close', textContent: '×', title: 'close (Esc)', onclick: () => this.close() });
    const head = el('tr', {}, ...['World', 'Recorded', 'Agents', 'Mind', 'Size', ''].map((h) => el('th', { textContent: h })));
    this.root = el(
      'div',
      { id: 'world-picker', hidden: true },
      el('div', { className: 'picker-box', role: 'dialog' },
        el('header', {}, el('h2', { textContent: 'Replay a world' }), close),
        el('p', { className: 'muted', textContent: 'Every world file in the data folder: running towns, headless runs and backups. Files open read-only.' }),
        el('table', {}, el('thead', {}, head), this.list),
        this.note),
    );
    this.root.addEventListener('click', (e) => {
      if (e.target === this.root) this.close();
    });
    document.body.append(this.root);
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  async open(): Promise<void> {
    this.root.hidden = false;
    this.note.textContent = 'reading the world files…';
    try {
      const listing = await fetchWorlds();
      this.list.replaceChildren(...listing.worlds.map((w) => this.row(w)));
      this.note.textContent = listing.worlds.length ? '' : 'No world files yet.';
    } catch (error) {
      this.note.textContent = `The world files could not be listed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Closes the picker; false when it was not open. */
  close(): boolean {
    if (this.root.hidden) return false;
    this.root.hidden = true;
    return true;
  }

  private row(w: WorldFileListing): HTMLElement {
    const name = `${w.id}${w.live ? ' (live)' : ''}${w.kind === 'backup' ? ' (backup)' : ''}`;
    const span = w.span ? `${formatGameTime(w.span.firstGameMs)} – ${formatGameTime(w.span.lastGameMs)}` : 'nothing recorded';
    const tr = el('tr', {},
      el('td', { textContent: name }),
      el('td', { textContent: w.error ?? `${span}${w.reduced ? ' (less detail)' : ''}` }),
      el('td', { textContent: w.error ? '' : String(w.agents) }),
      el('td', { textContent: w.mind ?? '' }),
      el('td', { textContent: megabytes(w.sizeBytes) }));
    tr.dataset.world = w.id;
    const cell = el('td');
    if (!w.error && w.span) {
      const here = this.current() === w.id;
      cell.append(el('a', { href: replayUrl(w.id, w.span.lastGameMs), textContent: here ? 'shown' : 'replay', className: 'replay-world' }));
    } else tr.classList.add('unreadable');
    tr.append(cell);
    return tr;
  }
}
