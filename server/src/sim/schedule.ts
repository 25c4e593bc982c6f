// Following the day: ask for the plan before waking, sleep and wake on time, and take up the action
// the plan has for this minute (walking to its place).
import { dayIndex, minuteOfDay } from '../protocol/time';
import { findActionIndex, isAwake } from '../protocol/plan';
import { MINUTES_PER_DAY, minuteOfWakingDay, wakingDayAt } from '../world/clockText';
import type { AgentSimState } from './types';
import * as C from './constants';
import type { Step } from './state';
import { emit } from './emit';
import { ownClockGameMs } from '../protocol/lateness';
import { advanceWalk, walkToAddress } from './walking';

export const SLEEPING = { description: 'sleeping', emoji: '😴' } as const;
export const WAITING = { description: 'getting ready for the day', emoji: '🌅' } as const;

/** One agent's turn in a step: plan request, walk, then sleep, wake or the plan's action. */
export function followSchedule(step: Step, agent: AgentSimState): void {
  const spec = agent.spec;
  // The agent's own clock: the step's time less its lateness (stagger.ts).
  const own = ownClockGameMs(spec.id, step.now);
  // After midnight and before a bedtime past midnight, it is still yesterday's plan, at minute 1440+.
  const { day, minute } = wakingDayAt(dayIndex(own), minuteOfDay(own), spec.wakeMinute, spec.sleepMinute);
  requestPlan(step, agent, day, minute);
  const entered = advanceWalk(step.world, agent, step.now);
  if (entered !== null) step.dirtyArenas.add(entered);
  if (agent.conversationId !== null) return;

  if (!isAwake(minute % MINUTES_PER_DAY, spec.wakeMinute, spec.sleepMinute)) {
    if (!agent.asleep) {
      agent.actionIndex = -1;
      setAction(step, agent, SLEEPING.description, SLEEPING.emoji, spec.bedAddress, true);
    }
    return;
  }
  if (agent.asleep) {
    // Awake now: the action below (the plan's, or getting ready) says so.
    agent.actionIndex = -2;
    step.out.changed.add(spec.id);
  }
  const plan = agent.plan && agent.plan.day === day ? agent.plan : null;
  const index = plan ? findActionIndex(plan.actions, minute) : -1;
  if (index === agent.actionIndex) return;
  agent.actionIndex = index;
  if (plan && index >= 0) {
    const action = plan.actions[index];
    setAction(step, agent, action.description, action.emoji, action.address, false);
  } else if (agent.current.description !== WAITING.description || agent.asleep) {
    setAction(step, agent, WAITING.description, WAITING.emoji, agent.current.address, false);
  }
}

/** Asks for today's plan a little before waking (or at once, for a world that starts mid-morning). */
function requestPlan(step: Step, agent: AgentSimState, day: number, minute: number): void {
  const spec = agent.spec;
  const planDay = minute >= spec.wakeMinute - C.PLAN_LEAD_MINUTES && minute < minuteOfWakingDay(spec.sleepMinute, spec.wakeMinute) ? day : null;
  if (planDay === null || (agent.plan?.day ?? -1) >= planDay || agent.planRequestedDay === planDay || agent.busy) return;
  agent.planRequestedDay = planDay;
  agent.busy = true;
  step.out.changed.add(spec.id);
  step.out.requests.push({ kind: 'plan', agentId: spec.id, day: planDay, gameMs: step.now });
}

export function setAction(step: Step, agent: AgentSimState, description: string, emoji: string, address: string, asleep: boolean): void {
  step.out.changed.add(agent.spec.id);
  if (agent.arenaIndex >= 0) step.dirtyArenas.add(agent.arenaIndex);
  emit(step, 'agent.action', agent.spec.id, { description, emoji, address, asleep });
  walkToAddress(step, agent, address);
}
