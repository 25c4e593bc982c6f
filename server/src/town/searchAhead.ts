// Path searches between live ticks, so the ticks need not make them: the walks of the plans waiting to be applied
// (the next tick needs them) and of the next actions of a tenth of the town after each tick (sim/walksAhead.ts), at
// most WALKS_AHEAD_TURN_MS a turn of the event loop; and the whole distance fields that walks earned, one a turn.
import { performance } from 'node:perf_hooks';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { Input } from '../sim/types';
import type { WalkAhead } from '../sim/walksAhead';

/**
 * Walks searched ahead between live ticks (sim/walksAhead.ts): the next actions that begin within this much game time,
 * looked at for a tenth of the town after each tick (so each agent once in WALKS_AHEAD_SLICES ticks: a game minute at
 * 1×, well inside the horizon), and the walks of the plans waiting to be applied.
 */
export const WALKS_AHEAD_GAME_MS = 90_000;
export const WALKS_AHEAD_SLICES = 10;
/** Wall ms of path searches ahead in one turn of the event loop at most (a commute at 10,000 is ~1–3 ms). */
const WALKS_AHEAD_TURN_MS = 6;

export interface SearchAheadParts {
  sim: Simulation;
  clock: SimClock;
  /** The lists of inputs waiting to be applied (read where they wait, not copied). */
  waitingInputs: () => ReadonlyArray<readonly Input[]>;
  /** Whether the town closed. */
  stopped: () => boolean;
  /** Whether a lockstep run goes (its steps search what they need). */
  lockstepRunning: () => boolean;
}

export class SearchAhead {
  /** Walks to search ahead: those of plans waiting to be applied first (the next tick needs them), then of next actions. */
  private ofPlans: WalkAhead[] = [];
  private ofActions: WalkAhead[] = [];
  private slice = 0;
  private sliceDue = false;
  private booked = false;
  /** The game time the last tick advanced (the plans' walks start after the next). */
  lastAdvanceGameMs = 0;
  /** The plans whose walks were already worked out. */
  private readonly plansLookedAt = new WeakSet<Input>();
  /** A turn of the event loop is booked to search the whole distance fields waiting (finishFieldsLater). */
  private finishingFields = false;

  constructor(private readonly p: SearchAheadParts) {}

  /** The walks whose searches a tick's budget gave up: searched first between ticks. */
  searchFirst(walks: readonly WalkAhead[]): void {
    if (walks.length > 0) this.ofPlans.unshift(...walks);
  }

  /** After a tick: the next actions of a slice of the town whose walks begin soon, worked out and searched between ticks. */
  afterTick(): void {
    this.sliceDue = true;
    this.searchLater();
  }

  /**
   * Books a turn of the event loop to search walks ahead: the walks of plans handed over since (routines, made
   * plans) first, then the next actions', for up to WALKS_AHEAD_TURN_MS; another turn while some are left.
   */
  searchLater(): void {
    if (this.booked || this.p.stopped()) return;
    this.booked = true;
    setImmediate(() => {
      this.booked = false;
      if (this.p.stopped() || this.p.lockstepRunning()) return;
      const { sim, clock } = this.p;
      if (this.sliceDue) {
        // What the last slice left unsearched is older than what this one finds: it goes.
        this.ofActions = sim.walksOfNextActions(WALKS_AHEAD_GAME_MS, this.slice, WALKS_AHEAD_SLICES);
        this.slice = (this.slice + 1) % WALKS_AHEAD_SLICES;
        this.sliceDue = false;
      }
      // The plans not looked at yet, of those waiting (read where they wait: the lists are thousands long in a big
      // town's morning, and copied at each turn they were its biggest garbage, 1.6 GB in the 10,000's hour).
      const fresh: Input[] = [];
      for (const list of this.p.waitingInputs())
        for (const input of list) if (input.kind === 'plan' && !this.plansLookedAt.has(input)) (this.plansLookedAt.add(input), fresh.push(input));
      if (fresh.length > 0) this.ofPlans.push(...sim.walksOfPlans(fresh, clock.gameMs + this.lastAdvanceGameMs));
      const started = performance.now();
      while (performance.now() - started < WALKS_AHEAD_TURN_MS) {
        const walk = this.ofPlans.shift() ?? this.ofActions.shift();
        if (!walk) return;
        sim.world.fields.searchAhead(walk.from, walk.to);
      }
      this.searchLater();
    });
  }

  /**
   * The whole distance fields that walks earned are searched between ticks, one a turn of the event loop (a search of
   * the whole map, ~1.8 M tiles at 10,000): in the tick, a morning's workplaces each held it for tens of ms.
   */
  finishFieldsLater(): void {
    const fields = this.p.sim.world.fields;
    fields.deferWholeFields = true;
    if (this.finishingFields || !fields.wantsWork) return;
    this.finishingFields = true;
    setImmediate(() => {
      this.finishingFields = false;
      if (this.p.stopped()) return;
      fields.finishWanted(1);
      if (fields.wantsWork) this.finishFieldsLater();
    });
  }
}
