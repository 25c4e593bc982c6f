// Following the day: ask for the plan before waking, sleep and wake on time, and take up the action
// the plan has for this minute (walking to its place).
import { dayIndex, GAME_MS_PER_MINUTE, minuteOfDay } from '../protocol/time';
import { findKeptIndex, isAwake, keptAction } from '../protocol/plan';
import { MINUTES_PER_DAY, minuteOfWakingDay, wakingDayAt } from '../world/clockText';
import type { AgentSimState, ResidentSpec } from './types';
import * as C from './constants';
import type { Step } from './state';
import { emit } from './emit';
import { latenessGameMs, ownClockGameMs } from '../protocol/lateness';
import { advanceWalk, resolveTile, walkToAddress, walkWaits } from './walking';

export const SLEEPING = { description: 'sleeping', emoji: '😴' } as const;
export const WAITING = { description: 'getting ready for the day', emoji: '🌅' } as const;

/**
 * One agent's turn in a step: plan request, walk, then sleep, wake or the plan's action. Returns false when the new
 * action's walk must wait for a live step's budget (walkWaits): nothing of it is taken up, and the agent's turn is due
 * again at the next step.
 */
export function followSchedule(step: Step, agent: AgentSimState): boolean {
  // The agent's own clock: the step's time less its lateness (stagger.ts).
  const own = ownClockGameMs(agent.spec.id, step.now);
  requestPlan(step, agent, own);
  const entered = advanceWalk(step.world, agent, step.now);
  if (entered !== null) step.dirtyArenas.add(entered);
  if (agent.conversationId !== null) return true;

  // The spec after requestPlan: an edited persona may have taken over just now.
  const spec = agent.spec;
  // After midnight and before a bedtime past midnight, it is still yesterday's plan, at minute 1440+.
  const { day, minute } = wakingDayAt(dayIndex(own), minuteOfDay(own), spec.wakeMinute, spec.sleepMinute);

  const before = agent.actionIndex;
  if (!isAwake(minute % MINUTES_PER_DAY, spec.wakeMinute, spec.sleepMinute)) {
    if (agent.asleep) return true;
    agent.actionIndex = -1;
    return setAction(step, agent, SLEEPING.description, SLEEPING.emoji, spec.bedAddress, true) || waits(agent, before);
  }
  if (agent.asleep) {
    // Awake now: the action below (the plan's, or getting ready) says so.
    agent.actionIndex = -2;
    step.out.changed.add(spec.id);
  }
  const plan = agent.plan && agent.plan.day === day ? agent.plan : null;
  const index = plan ? findKeptIndex(plan, minute) : -1;
  if (index === agent.actionIndex) return true;
  agent.actionIndex = index;
  if (plan && index >= 0) {
    const action = keptAction(plan, index);
    return setAction(step, agent, action.description, action.emoji, action.address, false) || waits(agent, before);
  } else if (agent.current.description !== WAITING.description || agent.asleep) {
    return setAction(step, agent, WAITING.description, WAITING.emoji, agent.current.address, false) || waits(agent, before);
  }
  return true;
}

/** A walk that waits: the action index goes back to what it was, so the next step takes the action up afresh. */
function waits(agent: AgentSimState, actionIndex: number): false {
  agent.actionIndex = actionIndex;
  return false;
}

/** What followSchedule read of an agent when it last ran for it, and the minute of its own clock then. */
interface ScheduleMark {
  ownMinute: number;
  /** The first minute of its own clock at which the schedule could change something again (see `ran`). */
  untilOwnMinute: number;
  spec: ResidentSpec;
  nextSpec: ResidentSpec | undefined;
  plan: AgentSimState['plan'];
  planRequestedDay: number | null;
  current: AgentSimState['current'];
  actionIndex: number;
  asleep: boolean;
  busy: boolean;
  conversationId: number | null;
}

const EMPTY_MARK: ScheduleMark = {
  ownMinute: 0,
  untilOwnMinute: 0,
  spec: undefined as unknown as ResidentSpec,
  nextSpec: undefined,
  plan: null,
  planRequestedDay: null,
  current: undefined as unknown as AgentSimState['current'],
  actionIndex: -1,
  asleep: false,
  busy: false,
  conversationId: null,
};

/**
 * Which agents the schedule can pass over in a step. An agent that is not walking is quiet until the
 * minute of its own clock changes or something it reads changes (its spec, plan, action, sleep, busy,
 * conversation): `followSchedule` depends on nothing else (game time only through that minute), and
 * run twice in the same minute on the same agent it changes nothing the second time. So a town of ten
 * thousand steps the schedule of the walkers, the agents something happened to, and the tenth whose
 * minute turned (at 1×), instead of everyone every step; the outcome is the same as running everyone
 * (tests/unit/scheduleSkips.test.ts). Derived, not state: a restored state starts with everyone due.
 */
export class QuietSchedule {
  private readonly marks = new WeakMap<AgentSimState, ScheduleMark>();

  /** Whether followSchedule would change nothing for this agent now. */
  isQuiet(agent: AgentSimState, now: number): boolean {
    if (agent.movement !== null) return false;
    const m = this.marks.get(agent);
    if (m === undefined) return false;
    const ownMinute = Math.floor(ownClockGameMs(agent.spec.id, now) / GAME_MS_PER_MINUTE);
    return (
      ownMinute >= m.ownMinute &&
      ownMinute < m.untilOwnMinute &&
      m.spec === agent.spec &&
      m.nextSpec === agent.nextSpec &&
      m.plan === agent.plan &&
      m.planRequestedDay === agent.planRequestedDay &&
      m.current === agent.current &&
      m.actionIndex === agent.actionIndex &&
      m.asleep === agent.asleep &&
      m.busy === agent.busy &&
      m.conversationId === agent.conversationId
    );
  }

  /** Drops what followSchedule last left the agent as: it is not quiet until it runs again. */
  forget(agent: AgentSimState): void {
    this.marks.delete(agent);
  }

  /**
   * Notes what followSchedule left the agent as, just after it ran. Returns the game time from which it is no
   * longer quiet by the clock alone: its own clock reaching the mark's `untilOwnMinute`.
   */
  ran(agent: AgentSimState, now: number): number {
    const ownMinute = Math.floor(ownClockGameMs(agent.spec.id, now) / GAME_MS_PER_MINUTE);
    // Asleep, standing, not talking: followSchedule reads the time only through the waking day and minute, whether
    // the plan is due (from wake − PLAN_LEAD_MINUTES to bedtime) and whether it is awake, so it changes nothing until
    // the minute of day reaches midnight, a wake, a bedtime or a plan's lead (its spec's or the one waiting): a sleeping
    // town runs no schedule between those. Anyone else is run again when its minute turns.
    const asleep = agent.asleep && agent.movement === null && agent.conversationId === null;
    const untilOwnMinute = asleep ? nextBoundaryMinute(ownMinute, agent.spec, agent.nextSpec) : ownMinute + 1;
    // Each agent's mark is rewritten in place: ~1,500 new marks a step at 10,000 lived past a young-generation collection
    // (a game minute) and were a tenth of what the old generation took in.
    let mark = this.marks.get(agent);
    if (mark === undefined) this.marks.set(agent, (mark = { ...EMPTY_MARK }));
    mark.ownMinute = ownMinute;
    mark.untilOwnMinute = untilOwnMinute;
    mark.spec = agent.spec;
    mark.nextSpec = agent.nextSpec;
    mark.plan = agent.plan;
    mark.planRequestedDay = agent.planRequestedDay;
    mark.current = agent.current;
    mark.actionIndex = agent.actionIndex;
    mark.asleep = agent.asleep;
    mark.busy = agent.busy;
    mark.conversationId = agent.conversationId;
    return mark.untilOwnMinute * GAME_MS_PER_MINUTE + latenessGameMs(agent.spec.id);
  }
}

/** The first minute after `ownMinute` whose minute of day is midnight, or a wake, bedtime or plan lead of `spec` or `next`. */
function nextBoundaryMinute(ownMinute: number, spec: ResidentSpec, next: ResidentSpec | undefined): number {
  const day = ((ownMinute % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  let ahead = MINUTES_PER_DAY - day;
  for (const s of next ? [spec, next] : [spec])
    for (const boundary of [s.wakeMinute, s.sleepMinute, s.wakeMinute - C.PLAN_LEAD_MINUTES]) {
      const d = (((boundary - day) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
      if (d > 0 && d < ahead) ahead = d;
    }
  return ownMinute + ahead;
}

/**
 * Asks for today's plan a little before waking on the agent's own clock (or at once, for a world that
 * starts mid-morning). A changed spec waiting for this moment (a persona file edited) takes over first,
 * so the new hours, bed and look start with the plan made from the new persona.
 */
function requestPlan(step: Step, agent: AgentSimState, ownGameMs: number): void {
  const next = agent.nextSpec;
  if (next && (planDayDue(agent, agent.spec, ownGameMs) !== null || planDayDue(agent, next, ownGameMs) !== null)) {
    emit(step, 'agent.updated', agent.spec.id, { spec: next, at: 'now' });
    step.out.changed.add(agent.spec.id);
  }
  const planDay = planDayDue(agent, agent.spec, ownGameMs);
  if (planDay === null) return;
  const spec = agent.spec;
  agent.planRequestedDay = planDay;
  agent.busy = true;
  step.out.changed.add(spec.id);
  step.out.requests.push({ kind: 'plan', agentId: spec.id, day: planDay, gameMs: step.now });
}

/** The day whose plan the agent should ask for at this moment of its own clock, with these hours; null when none is due. */
function planDayDue(agent: AgentSimState, spec: ResidentSpec, ownGameMs: number): number | null {
  const { day, minute } = wakingDayAt(dayIndex(ownGameMs), minuteOfDay(ownGameMs), spec.wakeMinute, spec.sleepMinute);
  const planDay = minute >= spec.wakeMinute - C.PLAN_LEAD_MINUTES && minute < minuteOfWakingDay(spec.sleepMinute, spec.wakeMinute) ? day : null;
  if (planDay === null || (agent.plan?.day ?? -1) >= planDay || agent.planRequestedDay === planDay || agent.busy) return null;
  return planDay;
}

/** Takes up an action and walks to its place; false, changing nothing, when its walk must wait for a later step (walkWaits). */
export function setAction(step: Step, agent: AgentSimState, description: string, emoji: string, address: string, asleep: boolean): boolean {
  const target = resolveTile(step, address, agent);
  if (walkWaits(step, agent, target)) return false;
  step.out.changed.add(agent.spec.id);
  if (agent.arenaIndex >= 0) step.dirtyArenas.add(agent.arenaIndex);
  emit(step, 'agent.action', agent.spec.id, { description, emoji, address, asleep });
  walkToAddress(step, agent, address, target);
  return true;
}
