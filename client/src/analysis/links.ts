// Every chart, node and conversation leads to the replay at that moment: the main page opened with
// ?world=&t=&agent= (protocol/analysis.ts `replayLink`). The latest link shows in the bar on top.
import { formatIsoMinute, formatGameTime } from '@protocol/time';
import { replayLink } from '@protocol/analysis';

let world: string | null = null;
let last: string | null = null;

export function setLinkWorld(id: string | null): void {
  world = id;
}

export function linkTo(gameMs: number, agent?: string | null): string {
  return replayLink(formatIsoMinute(gameMs), world, agent);
}

/** Shows "▶ Replay at <time>" for a moment someone clicked, and returns the link. */
export function showReplayLink(gameMs: number, what: string, agent?: string | null): string {
  const href = linkTo(gameMs, agent);
  const bar = document.getElementById('linkbar')!;
  bar.replaceChildren();
  const a = document.createElement('a');
  a.id = 'replay-link';
  a.href = href;
  a.textContent = `▶ Replay at ${formatGameTime(gameMs)}`;
  const note = document.createElement('span');
  note.className = 'muted';
  note.textContent = ` ${what}`;
  bar.append(a, note);
  last = href;
  return href;
}

export function lastReplayLink(): string | null {
  return last;
}
