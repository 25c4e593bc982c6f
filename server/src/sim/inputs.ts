// What cognition and operators send back to the sim, applied at the start of a step.
import type { Input } from './types';
import type { Step } from './state';
import { emit } from './emit';
import { endConversation } from './conversations';
import { SLEEPING } from './schedule';
import { TALK_INTENT_GAME_MS } from './constants';
import { keepPlan, type PlannedAction } from '../protocol/plan';
import { ownClockGameMs } from '../protocol/lateness';
import { dayIndex, minuteOfDay } from '../protocol/time';
import { wakingDayAt } from '../world/clockText';

/** The actions from `fromMinute` on: the one under way then starts at it. */
function actionsFrom(actions: readonly PlannedAction[], fromMinute: number): PlannedAction[] {
  return actions
    .filter((a) => a.startMinute + a.durationMinutes > fromMinute)
    .map((a) => (a.startMinute < fromMinute ? { ...a, startMinute: fromMinute, durationMinutes: a.startMinute + a.durationMinutes - fromMinute } : a));
}

/** The reason a day's plan arriving after the routine stood in for it is logged with (a re-plan). */
export const PLAN_AFTER_ROUTINE = 'its own plan for the day came, after its routine stood in';

export function applyInput(step: Step, input: Input): void {
  const { index } = step;
  switch (input.kind) {
    case 'plan': {
      const a = index.agents.get(input.agentId);
      if (!a) return;
      const { day, broadStrokes, hourBlocks, actions } = input.plan;
      // The agent's own plan after its routine stood in for it (the loop's quick plan, when the mind was late):
      // the same plan changes nothing; another is logged as the re-plan it is, not as a second plan of the day.
      if (a.plan && a.plan.day === day) {
        const kept = keepPlan(input.plan);
        if (JSON.stringify(kept.cells) === JSON.stringify(a.plan.cells) && JSON.stringify(kept.broadStrokes) === JSON.stringify(a.plan.broadStrokes)) return;
        emit(step, 'plan.made', input.agentId, { day, reason: PLAN_AFTER_ROUTINE, fromMinute: 0, actions });
        return;
      }
      emit(step, 'plan.made', input.agentId, { day, broadStrokes, hourBlocks, actions });
      return;
    }
    case 'replan': {
      const a = index.agents.get(input.agentId);
      if (!a || !a.plan) return;
      if (input.day === undefined) {
        emit(step, 'plan.made', input.agentId, { day: a.plan.day, reason: input.reason, fromMinute: input.fromMinute, actions: input.actions });
        return;
      }
      // A day's actions decomposed while the agent lived on: that day only, from its own minute now.
      if (a.plan.day !== input.day) return;
      const own = ownClockGameMs(a.spec.id, step.now);
      const fromMinute = Math.max(input.fromMinute, wakingDayAt(dayIndex(own), minuteOfDay(own), a.spec.wakeMinute, a.spec.sleepMinute).minute);
      const actions = actionsFrom(input.actions, fromMinute);
      if (actions.length > 0) emit(step, 'plan.made', input.agentId, { day: a.plan.day, reason: input.reason, fromMinute, actions });
      return;
    }
    case 'talk': {
      const a = index.agents.get(input.agentId);
      if (!a || input.partnerId === input.agentId || !index.agents.has(input.partnerId)) return;
      a.talkIntent = { partnerId: input.partnerId, untilGameMs: step.now + TALK_INTENT_GAME_MS, basis: input.basis };
      return;
    }
    case 'done': {
      const a = index.agents.get(input.agentId);
      if (a && a.conversationId === null) {
        a.busy = false;
        // A plan operation that ended without a plan (it failed) is asked for again.
        if (a.planRequestedDay !== null && a.plan?.day !== a.planRequestedDay) a.planRequestedDay = null;
        step.out.changed.add(a.spec.id);
        step.due.touch(a);
      }
      return;
    }
    case 'utterance': {
      const c = index.conversations.get(input.conversationId);
      if (c && !c.ended) c.queued.push({ speaker: input.speaker, text: input.text });
      return;
    }
    case 'conversationEnd': {
      const c = index.conversations.get(input.conversationId);
      if (c) c.ended = true;
      return;
    }
    case 'worldEvent': {
      emit(step, 'world.event', null, { description: input.description, arena: input.arena, durationGameMs: input.durationGameMs });
      // An event at a place breaks off the talks there (an alarm, a flood: nobody chats on through it); then
      // everyone present perceives it on this step, even if nothing else in the arena changed.
      const place = input.arena;
      if (place !== null)
        for (const c of [...step.state.conversations]) if (c.arena === place || c.arena.startsWith(`${place}: `)) endConversation(step, c, 'interrupted');
      for (const a of step.state.agents) a.held = a.held.filter(([k]) => k !== input.description);
      step.forcePerception = true;
      return;
    }
    case 'addAgent': {
      const spec = input.resident;
      if (index.agents.has(spec.id)) return;
      emit(step, 'agent.added', spec.id, {
        spec,
        tile: spec.spawnTile,
        current: { description: SLEEPING.description, emoji: SLEEPING.emoji, address: spec.bedAddress, startGameMs: step.now },
      });
      step.out.added.push(spec.id);
      return;
    }
    case 'removeAgent': {
      const a = index.agents.get(input.agentId);
      if (!a) return;
      const c = a.conversationId !== null ? index.conversations.get(a.conversationId) : undefined;
      if (c) endConversation(step, c, 'removed');
      emit(step, 'agent.removed', a.spec.id, input.left ? { left: input.left, name: a.spec.name } : {});
      step.out.removed.push(a.spec.id);
      return;
    }
    case 'updateResident': {
      const a = index.agents.get(input.resident.id);
      if (!a) return;
      // Where it stands is where it is: the spawn tile matters only on arrival.
      emit(step, 'agent.updated', a.spec.id, { spec: { ...input.resident, spawnTile: a.spec.spawnTile }, at: 'next plan' });
      return;
    }
    case 'restarted': {
      for (const c of [...step.state.conversations]) endConversation(step, c, 'interrupted');
      for (const a of step.state.agents) {
        a.busy = false;
        if (a.planRequestedDay !== null && a.plan?.day !== a.planRequestedDay) a.planRequestedDay = null;
        if (!a.asleep) a.actionIndex = -2;
        step.out.changed.add(a.spec.id);
      }
      step.due.all();
      return;
    }
    default: {
      const never: never = input;
      throw new Error(`unknown input ${JSON.stringify(never)}`);
    }
  }
}
