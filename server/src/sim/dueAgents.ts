// Which agents' schedules a step must look at, without a pass over the whole town. QuietSchedule
// (schedule.ts) says exactly when an agent's schedule would change nothing: it is not walking, nothing it
// reads changed since the schedule last ran for it, and its own clock has not reached the minute at which
// its schedule could change something again. So an agent can need its schedule only when (a) it walks,
// (b) something changed it (an event about it, an input, its turn to hand over observations), or (c) that
// minute comes. DueAgents keeps the three: the walkers, the agents touched since the last step, and a
// timing wheel of the game time each quiet agent is next due. A step runs the schedule of those that
// QuietSchedule does not call quiet, in the town's order, and the outcome is the pass over everyone's
// (tests/unit/dueAgents.test.ts; tests/unit/scheduleSkips.test.ts against running every agent).
// Derived, not state: a restored or renamed state starts with everyone due. A live step's budget spreads
// those first turns over the next steps, a slice at a time (tests/unit/stepBudget.test.ts).
import type { AgentSimState } from './types';

/** Game ms a slot of the wheel spans: due agents come out a slot at a time, those not yet due go back. */
const WHEEL_SLOT_GAME_MS = 1_000;

export class DueAgents {
  /** Everyone is due at the next step (a new or restored state, a renamed agent, the every-agent reference). */
  private everyone = true;
  /** Agents something changed since their schedule last ran (events, inputs, observations handed over). */
  private touched = new Set<AgentSimState>();
  /** Agents walking when their schedule last ran: due every step until they stop. */
  private readonly walkers = new Set<AgentSimState>();
  /** Quiet agents by the wheel slot of the game time their schedule is next due: [agent, dueGameMs, ...]. */
  private readonly wheel = new Map<number, Array<AgentSimState | number>>();
  /** The wheel's slots before this one have been emptied. */
  private nextSlot = -Infinity;
  /** Each agent's place in the town's list, rebuilt when the list changes (an agent added or removed). */
  private positions = new Map<AgentSimState, number>();
  private positionsOf: readonly AgentSimState[] | null = null;
  private positionsLength = -1;
  /**
   * The agents still to have their first turn since everyone fell due, in the town's order from `firstTurnAt` (a
   * budgeted step takes a slice of them: take's `firstTurnsAtMost`); `beforeFirst` holds those of them not yet taken.
   */
  private firstTurns: AgentSimState[] = [];
  private firstTurnAt = 0;
  private readonly beforeFirst = new Set<AgentSimState>();

  /** Everyone is due at the next step. */
  all(): void {
    this.everyone = true;
  }

  /** Something the schedule reads changed for this agent (or it arrived). */
  touch(agent: AgentSimState | undefined): void {
    if (agent) this.touched.add(agent);
  }

  /**
   * Notes that the agent's schedule just ran: it stays due every step while it walks, and is otherwise
   * next due at `dueGameMs` (unless something touches it first).
   */
  ran(agent: AgentSimState, dueGameMs: number): void {
    if (agent.movement !== null) {
      this.walkers.add(agent);
      return;
    }
    this.walkers.delete(agent);
    const slot = Math.max(this.nextSlot, Math.floor(dueGameMs / WHEEL_SLOT_GAME_MS));
    let entries = this.wheel.get(slot);
    if (!entries) this.wheel.set(slot, (entries = []));
    entries.push(agent, dueGameMs);
  }

  /**
   * The agents whose schedule may need to run at `now`, in the town's order (`agents`); null when everyone
   * is. Takes the touched agents (those touched from now on count for the next step). When everyone is due
   * and there are more than `firstTurnsAtMost` (a live step's budget), the walkers are due now and the rest
   * `firstTurnsAtMost` a step, in the town's order, with whoever else falls due (touched ones at once).
   */
  take(agents: readonly AgentSimState[], now: number, firstTurnsAtMost = Infinity): AgentSimState[] | null {
    if (this.everyone) {
      this.everyone = false;
      this.touched = new Set();
      this.walkers.clear();
      this.wheel.clear();
      this.nextSlot = Math.floor(now / WHEEL_SLOT_GAME_MS);
      this.beforeFirst.clear();
      this.firstTurns = [];
      this.firstTurnAt = 0;
      if (agents.length <= firstTurnsAtMost) return null;
      const due = new Set<AgentSimState>();
      for (const a of agents) {
        if (a.movement !== null) {
          due.add(a);
          continue;
        }
        this.firstTurns.push(a);
        this.beforeFirst.add(a);
      }
      this.takeFirstTurns(due, firstTurnsAtMost);
      return this.inTownOrder(agents, due);
    }
    const due = this.touched;
    this.touched = new Set();
    for (const a of this.walkers) due.add(a);
    this.takeWheel(now, due);
    if (this.beforeFirst.size > 0) this.takeFirstTurns(due, firstTurnsAtMost);
    return this.inTownOrder(agents, due);
  }

  /** Whether the agent is still to have its first turn since everyone fell due (see take). */
  beforeFirstTurn(agent: AgentSimState): boolean {
    return this.beforeFirst.size > 0 && this.beforeFirst.has(agent);
  }

  /** Adds the next `most` agents still to have their first turn to `due`; those due anyway have theirs now too. */
  private takeFirstTurns(due: Set<AgentSimState>, most: number): void {
    for (const a of due) this.beforeFirst.delete(a);
    let taken = 0;
    while (taken < most && this.firstTurnAt < this.firstTurns.length) {
      const a = this.firstTurns[this.firstTurnAt++];
      if (!this.beforeFirst.delete(a)) continue;
      due.add(a);
      taken++;
    }
    if (this.firstTurnAt >= this.firstTurns.length) {
      this.firstTurns = [];
      this.firstTurnAt = 0;
      this.beforeFirst.clear();
    }
  }

  /** Moves the agents due by `now` out of the wheel into `due`; those of the current slot not yet due stay. */
  private takeWheel(now: number, due: Set<AgentSimState>): void {
    const lastSlot = Math.floor(now / WHEEL_SLOT_GAME_MS);
    if (lastSlot < this.nextSlot) return;
    // A long step (a resume hours later, a fast lockstep) passes many empty slots: read the wheel's own instead.
    let slots: number[];
    if (lastSlot - this.nextSlot > this.wheel.size) slots = [...this.wheel.keys()].filter((s) => s <= lastSlot).sort((a, b) => a - b);
    else slots = Array.from({ length: lastSlot - this.nextSlot + 1 }, (_, i) => this.nextSlot + i);
    for (const slot of slots) {
      const entries = this.wheel.get(slot);
      if (!entries) continue;
      this.wheel.delete(slot);
      let kept: Array<AgentSimState | number> | null = null;
      for (let i = 0; i < entries.length; i += 2) {
        const agent = entries[i] as AgentSimState;
        if ((entries[i + 1] as number) <= now) due.add(agent);
        else (kept ??= []).push(agent, entries[i + 1]);
      }
      if (kept) this.wheel.set(slot, kept);
    }
    this.nextSlot = lastSlot;
  }

  private inTownOrder(agents: readonly AgentSimState[], due: Set<AgentSimState>): AgentSimState[] {
    if (this.positionsOf !== agents || this.positionsLength !== agents.length) {
      this.positions = new Map(agents.map((a, i) => [a, i]));
      this.positionsOf = agents;
      this.positionsLength = agents.length;
    }
    const at: number[] = [];
    for (const a of due) {
      const i = this.positions.get(a);
      // Gone from town (removed, or the state replaced): nothing to run.
      if (i === undefined) {
        this.walkers.delete(a);
        continue;
      }
      at.push(i);
    }
    at.sort((p, q) => p - q);
    return at.map((i) => agents[i]);
  }
}
