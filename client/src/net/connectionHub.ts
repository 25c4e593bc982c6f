// The page's one connection, which can switch between the live town and a replay room. Panels and
// the scene hold the hub: their message handlers move to the new room on a switch, and they hear
// `switched` to reset what they show.
import type { Role } from '@protocol/messages';
import type { TownState } from '@protocol/state';
import type { TownConnection } from './townConnection';

type Handler = (message: unknown) => void;
export type ViewMode = 'live' | 'replay';

export class ConnectionHub implements TownConnection {
  private current: TownConnection;
  /** Every subscription, with what unsubscribes it from the room it is bound to now. */
  private readonly bindings = new Set<{ type: string; handler: Handler; off: () => void }>();
  private readonly switchListeners = new Set<(mode: ViewMode) => void>();

  constructor(
    /** What the page shows first: the live town, or (for a world file that is no running town) a replay. */
    initial: TownConnection,
    /** The live town, kept open while a replay plays so that going back is instant; null on a page that only replays a file. */
    readonly live: TownConnection | null,
  ) {
    this.current = initial;
  }

  /** A replay room says so in its state; everything else is the live town. */
  get mode(): ViewMode {
    return this.current.state.mode === 'replay' ? 'replay' : 'live';
  }

  get room(): TownConnection['room'] {
    return this.current.room;
  }

  get state(): TownState {
    return this.current.state;
  }

  get role(): Role {
    // Operator rights are the live town's; a replay changes nothing.
    return this.mode === 'live' ? this.current.role : 'spectator';
  }

  /** Whether this viewer is an operator of the live town (even while replaying, when the controls are off). */
  get liveOperator(): boolean {
    return this.live?.role === 'operator';
  }

  gameNow(): number {
    return this.current.gameNow();
  }

  send(type: string, message: unknown): void {
    this.current.send(type, message);
  }

  on(type: string, handler: Handler): () => void {
    const binding = { type, handler, off: this.current.on(type, handler) };
    this.bindings.add(binding);
    return () => {
      binding.off();
      this.bindings.delete(binding);
    };
  }

  onSwitch(listener: (mode: ViewMode) => void): () => void {
    this.switchListeners.add(listener);
    return () => this.switchListeners.delete(listener);
  }

  /** Shows another connection (a replay, or the live town again); a replay left behind is closed. */
  switchTo(next: TownConnection): void {
    if (next === this.current) return;
    const previous = this.current;
    this.current = next;
    for (const b of this.bindings) {
      b.off();
      b.off = next.on(b.type, b.handler);
    }
    if (previous !== this.live) void previous.room.leave();
    for (const l of this.switchListeners) l(this.mode);
  }
}
