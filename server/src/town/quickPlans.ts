// The routine that stands in for a plan not come by its agent's waking. A plan asked for is noted (awaitPlan); unless
// it comes first, its agent's routine falls due QUICK_PLAN_LEAD_GAME_MINUTES before it wakes on its own clock
// (takeDue), and the loop's pump makes the routines due between ticks, QUICK_PLANS_PER_TURN a turn (giveReady), never in
// the tick. Each routine is queued for the next step once per agent and day.
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import { planMomentAt } from '../world/clockText';
import { ownClockGameMs } from '../protocol/lateness';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { Input } from '../sim/types';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { AgentId } from '../protocol/ids';

/**
 * Routines made at most this many a turn of the event loop, between ticks (each a fraction of a millisecond to
 * one): a new world's first morning, when thousands are up before any plan is made, no longer makes them all in
 * one tick of seconds; they come as fast as the ticks leave time for.
 */
export const QUICK_PLANS_PER_TURN = 8;
/** An agent whose plan has not come this long before it wakes (on its own clock) gets the routine for the day. */
export const QUICK_PLAN_LEAD_GAME_MINUTES = 5;

export interface QuickPlanParts {
  sim: Simulation;
  clock: SimClock;
  runtime: AgentRuntime;
  /** Queues a routine for the next step. */
  enqueue: (input: Input) => void;
}

export class QuickPlans {
  /** Agent@day given the routine while its plan was still coming (once each; cleared when it gets long). */
  private readonly planned = new Set<string>();
  /** planKey's last key for each agent (ids come and go with renames: cleared as `planned` is). */
  private readonly planKeys = new Map<string, { day: number; key: string }>();
  /** Plans asked for and not yet come, with the game time from which their agent gets the routine meanwhile. */
  private due: Array<{ agentId: AgentId; day: number; dueGameMs: number }> = [];
  /** Routines due, made by the pump between ticks, the earliest due first. */
  private ready: Array<{ agentId: AgentId; day: number }> = [];
  /** The agent@day keys in `due` and `ready`. */
  private readonly queued = new Set<string>();

  constructor(private readonly p: QuickPlanParts) {}

  /** Whether routines are due for the pump to make. */
  get hasReady(): boolean {
    return this.ready.length > 0;
  }

  /** Whether the agent's day was given the routine, or will be between the next ticks. */
  covers(agentId: string, day: number): boolean {
    const key = this.planKey(agentId, day);
    return this.planned.has(key) || this.queued.has(key);
  }

  /**
   * `${agentId}@${day}`, the key of the routine sets, kept for the day last asked: the wait check asks it of every agent
   * awaiting its plan each tick (thousands in a morning of 10,000), and a new string each time was garbage the young
   * generation carried.
   */
  private planKey(agentId: string, day: number): string {
    const kept = this.planKeys.get(agentId);
    if (kept !== undefined && kept.day === day) return kept.key;
    const key = `${agentId}@${day}`;
    if (kept !== undefined) {
      kept.day = day;
      kept.key = key;
    } else this.planKeys.set(agentId, { day, key });
    return key;
  }

  /**
   * Notes a plan asked for: unless it comes first, its agent gets the routine QUICK_PLAN_LEAD_GAME_MINUTES before it
   * wakes on its own clock (at once when it is up already: a new world's first morning, an agent added mid-day).
   */
  awaitPlan(agentId: AgentId, day: number, gameMs: number): void {
    const agent = this.p.sim.agent(agentId);
    const key = `${agentId}@${day}`;
    if (!agent || this.queued.has(key) || this.planned.has(key)) return;
    const { wakeMinute, sleepMinute } = agent.spec;
    const moment = planMomentAt(ownClockGameMs(agentId, gameMs), wakeMinute, sleepMinute);
    const minutesAhead = moment.day === day ? Math.max(0, wakeMinute - QUICK_PLAN_LEAD_GAME_MINUTES - moment.minute) : 0;
    this.due.push({ agentId, day, dueGameMs: gameMs + minutesAhead * GAME_MS_PER_MINUTE });
    this.queued.add(key);
  }

  /** Moves the routines due by `gameMs` to the pump's list (it makes them between ticks), the earliest due first. */
  takeDue(gameMs: number): void {
    if (this.due.length === 0) return;
    const due = this.due.filter((q) => q.dueGameMs <= gameMs);
    if (due.length === 0) return;
    this.due = this.due.filter((q) => q.dueGameMs > gameMs);
    due.sort((a, b) => a.dueGameMs - b.dueGameMs);
    for (const { agentId, day } of due) this.ready.push({ agentId, day });
  }

  /** Makes up to QUICK_PLANS_PER_TURN routines of agents whose plans have not come (for the next step). */
  giveReady(): void {
    let given = 0;
    while (this.ready.length > 0 && given < QUICK_PLANS_PER_TURN) {
      const { agentId, day } = this.ready.shift()!;
      this.queued.delete(`${agentId}@${day}`);
      const agent = this.p.sim.agent(agentId);
      if (!agent || (agent.plan !== null && agent.plan.day >= day)) continue;
      if (this.give(agentId, day, this.p.clock.gameMs)) given++;
    }
  }

  /** Queues the routine for the agent's day for the next step, once per agent and day; false when none applies. */
  give(agentId: AgentId, day: number, gameMs: number): boolean {
    const key = `${agentId}@${day}`;
    if (this.planned.has(key)) return true;
    const quick = this.p.runtime.quickPlan({ kind: 'plan', agentId, day, gameMs });
    if (!quick) return false;
    if (this.planned.size > 100_000) this.planned.clear();
    if (this.planKeys.size > 100_000) this.planKeys.clear();
    this.planned.add(key);
    this.p.enqueue(quick);
    return true;
  }

  /** At close: the routines not made yet are dropped (their agents ask again when the world resumes). */
  dropQueued(): void {
    this.due = [];
    this.ready = [];
    this.queued.clear();
  }
}
