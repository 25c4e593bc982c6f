// Who the auto-follow camera watches when nobody has picked an agent: whoever is talking, else whoever
// walks, else whoever just took up something new; with the agents acting close by them, so a busy place
// is framed whole. A pick is kept a while (no jumping between two walkers every frame), and when nothing
// happens for a while the answer is null: show the whole town. Plain data in, plain data out: no Phaser.

export interface Actor {
  id: string;
  /** World position in px. */
  x: number;
  y: number;
  walking: boolean;
  /** Says a line now, or is in a conversation. */
  talking: boolean;
  asleep: boolean;
  /** The other agent of its conversation, or ''. */
  talkingTo: string;
  /** The current action's text: a change of it is "acting". */
  action: string;
}

/** A region of the world to show, in px. */
export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Keep watching someone at least this long before switching to someone as busy. */
export const MIN_DWELL_MS = 6000;
/** An action taken up this recently counts as acting. */
export const RECENT_ACTION_MS = 10_000;
/** After the last sign of life this long ago, go back to the whole town. */
export const LINGER_MS = 8000;
/** Agents acting within this distance (px) of the watched ones are framed with them. */
export const NEAR_PX = 12 * 32;
/** Margin around the framed agents, px. */
export const FRAME_MARGIN_PX = 5 * 32;

const TALKING = 3;
const WALKING = 2;
const ACTING = 1;

export class Spotlight {
  private readonly changedAt = new Map<string, { action: string; atMs: number }>();
  private watched: string[] = [];
  private watchedSinceMs = 0;
  private lastLifeMs = -Infinity;

  /** The agents watched now (for the test hooks and the HUD). */
  get ids(): readonly string[] {
    return this.watched;
  }

  /** Call every frame with the agents and the real time; returns the frame to show, or null for the whole town. */
  update(actors: readonly Actor[], nowMs: number): Frame | null {
    const byId = new Map(actors.map((a) => [a.id, a]));
    for (const a of actors) {
      const seen = this.changedAt.get(a.id);
      // A first sighting is not a change: an agent found mid-action is not news.
      if (!seen) this.changedAt.set(a.id, { action: a.action, atMs: -Infinity });
      else if (seen.action !== a.action) this.changedAt.set(a.id, { action: a.action, atMs: nowMs });
    }
    for (const id of this.changedAt.keys()) if (!byId.has(id)) this.changedAt.delete(id);

    const level = (a: Actor): number => {
      if (a.talking) return TALKING;
      if (a.walking) return WALKING;
      if (!a.asleep && nowMs - (this.changedAt.get(a.id)?.atMs ?? -Infinity) < RECENT_ACTION_MS) return ACTING;
      return 0;
    };
    const groupOf = (a: Actor): string[] => (a.talkingTo && byId.has(a.talkingTo) ? [a.id, a.talkingTo].sort() : [a.id]);
    const groupLevel = (ids: readonly string[]) => Math.max(0, ...ids.map((id) => (byId.has(id) ? level(byId.get(id)!) : 0)));

    const current = this.watched.filter((id) => byId.has(id));
    const currentLevel = groupLevel(current);
    let best: string[] = current;
    let bestLevel = currentLevel;
    for (const a of actors) {
      const l = level(a);
      if (l > bestLevel) {
        best = groupOf(a);
        bestLevel = l;
      }
    }
    const dwelt = nowMs - this.watchedSinceMs >= MIN_DWELL_MS;
    if (current.length === 0 || currentLevel === 0 || (bestLevel > currentLevel && dwelt)) {
      if (bestLevel > 0 && best !== current) {
        this.watched = best;
        this.watchedSinceMs = nowMs;
      }
    }
    const watched = this.watched.map((id) => byId.get(id)).filter((a): a is Actor => a !== undefined);
    if (watched.some((a) => level(a) > 0)) this.lastLifeMs = nowMs;
    if (watched.length === 0 || nowMs - this.lastLifeMs > LINGER_MS) {
      this.watched = [];
      return null;
    }
    // The busy place: the watched agents and anyone acting near them.
    const cx = watched.reduce((s, a) => s + a.x, 0) / watched.length;
    const cy = watched.reduce((s, a) => s + a.y, 0) / watched.length;
    const framed = [...watched, ...actors.filter((a) => !this.watched.includes(a.id) && level(a) > 0 && Math.hypot(a.x - cx, a.y - cy) <= NEAR_PX)];
    const xs = framed.map((a) => a.x);
    const ys = framed.map((a) => a.y);
    const x = Math.min(...xs) - FRAME_MARGIN_PX;
    const y = Math.min(...ys) - FRAME_MARGIN_PX;
    return { x, y, width: Math.max(...xs) + FRAME_MARGIN_PX - x, height: Math.max(...ys) + FRAME_MARGIN_PX - y };
  }
}
