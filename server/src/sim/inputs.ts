// What cognition and operators send back to the sim, applied at the start of a step.
import type { Input } from './types';
import type { Step } from './state';
import { emit } from './emit';
import { endConversation } from './conversations';
import { SLEEPING } from './schedule';
import { TALK_INTENT_GAME_MS } from './constants';
import { keepPlan, type PlannedAction } from '../protocol/plan';
import { ownClockGameMs } from '../protocol/lateness';
import { planMomentAt } from '../world/clockText';

/** The actions from `fromMinute` on: the one under way then starts at it. */
function actionsFrom(actions: readonly PlannedAction[], fromMinute: number): PlannedAction[] {
  return actions
    .filter((a) => a.startMinute + a.durationMinutes > fromMinute)
    .map((a) => (a.startMinute < fromMinute ? { ...a, startMinute: fromMinute, durationMinutes: a.startMinute + a.durationMinutes - fromMinute } : a));
}

/** The reason a day's plan arriving after the routine stood in for it is logged with (a re-plan). */
export const PLAN_AFTER_ROUTINE = 'its own plan for the day came, after its routine stood in';

type InputOf<K extends Input['kind']> = Extract<Input, { kind: K }>;

/** A handler per input kind. */
type Handlers = { [K in Input['kind']]: (step: Step, input: InputOf<K>) => void };

export function applyInput(step: Step, input: Input): void {
  if (!Object.hasOwn(HANDLERS, input.kind)) throw new Error(`unknown input ${JSON.stringify(input)}`);
  (HANDLERS[input.kind] as (step: Step, input: Input) => void)(step, input);
}

function takePlan(step: Step, input: InputOf<'plan'>): void {
  const a = step.index.agents.get(input.agentId);
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
}

function takeReplan(step: Step, input: InputOf<'replan'>): void {
  const a = step.index.agents.get(input.agentId);
  if (!a || !a.plan) return;
  if (input.day === undefined) {
    emit(step, 'plan.made', input.agentId, { day: a.plan.day, reason: input.reason, fromMinute: input.fromMinute, actions: input.actions });
    return;
  }
  // A day's actions decomposed while the agent lived on: that day only, from its own minute now.
  if (a.plan.day !== input.day) return;
  const own = ownClockGameMs(a.spec.id, step.now);
  const fromMinute = Math.max(input.fromMinute, planMomentAt(own, a.spec.wakeMinute, a.spec.sleepMinute).minute);
  const actions = actionsFrom(input.actions, fromMinute);
  if (actions.length > 0) emit(step, 'plan.made', input.agentId, { day: a.plan.day, reason: input.reason, fromMinute, actions });
}

function intendTalk(step: Step, input: InputOf<'talk'>): void {
  const { index } = step;
  const a = index.agents.get(input.agentId);
  if (!a || input.partnerId === input.agentId || !index.agents.has(input.partnerId)) return;
  a.talkIntent = { partnerId: input.partnerId, untilGameMs: step.now + TALK_INTENT_GAME_MS, basis: input.basis };
}

function finishOperation(step: Step, input: InputOf<'done'>): void {
  const a = step.index.agents.get(input.agentId);
  if (a && a.conversationId === null) {
    a.busy = false;
    // A plan operation that ended without a plan (it failed) is asked for again.
    if (a.planRequestedDay !== null && a.plan?.day !== a.planRequestedDay) a.planRequestedDay = null;
    step.out.changed.add(a.spec.id);
    step.due.touch(a);
  }
}

function queueUtterance(step: Step, input: InputOf<'utterance'>): void {
  const c = step.index.conversations.get(input.conversationId);
  if (c && !c.ended) c.queued.push({ speaker: input.speaker, text: input.text });
}

function markConversationEnded(step: Step, input: InputOf<'conversationEnd'>): void {
  const c = step.index.conversations.get(input.conversationId);
  if (c) c.ended = true;
}

function startWorldEvent(step: Step, input: InputOf<'worldEvent'>): void {
  emit(step, 'world.event', null, { description: input.description, arena: input.arena, durationGameMs: input.durationGameMs });
  // An event at a place breaks off the talks there (an alarm, a flood: nobody chats on through it); then
  // everyone present perceives it on this step, even if nothing else in the arena changed.
  const place = input.arena;
  if (place !== null)
    for (const c of [...step.state.conversations]) if (c.arena === place || c.arena.startsWith(`${place}: `)) endConversation(step, c, 'interrupted');
  for (const a of step.state.agents) a.held = a.held.filter(([k]) => k !== input.description);
  step.forcePerception = true;
}

function addAgent(step: Step, input: InputOf<'addAgent'>): void {
  const spec = input.resident;
  if (step.index.agents.has(spec.id)) return;
  emit(step, 'agent.added', spec.id, {
    spec,
    tile: spec.spawnTile,
    current: { description: SLEEPING.description, emoji: SLEEPING.emoji, address: spec.bedAddress, startGameMs: step.now },
  });
  step.out.added.push(spec.id);
}

function removeAgent(step: Step, input: InputOf<'removeAgent'>): void {
  const { index } = step;
  const a = index.agents.get(input.agentId);
  if (!a) return;
  const c = a.conversationId !== null ? index.conversations.get(a.conversationId) : undefined;
  if (c) endConversation(step, c, 'removed');
  emit(step, 'agent.removed', a.spec.id, input.left ? { left: input.left, name: a.spec.name } : {});
  step.out.removed.push(a.spec.id);
}

function updateResident(step: Step, input: InputOf<'updateResident'>): void {
  const a = step.index.agents.get(input.resident.id);
  if (!a) return;
  // Where it stands is where it is: the spawn tile matters only on arrival.
  emit(step, 'agent.updated', a.spec.id, { spec: { ...input.resident, spawnTile: a.spec.spawnTile }, at: 'next plan' });
}

function restart(step: Step): void {
  for (const c of [...step.state.conversations]) endConversation(step, c, 'interrupted');
  for (const a of step.state.agents) {
    a.busy = false;
    if (a.planRequestedDay !== null && a.plan?.day !== a.planRequestedDay) a.planRequestedDay = null;
    if (!a.asleep) a.actionIndex = -2;
    step.out.changed.add(a.spec.id);
  }
  step.due.all();
}

const HANDLERS: Handlers = {
  plan: takePlan,
  replan: takeReplan,
  talk: intendTalk,
  done: finishOperation,
  utterance: queueUtterance,
  conversationEnd: markConversationEnded,
  worldEvent: startWorldEvent,
  addAgent,
  removeAgent,
  updateResident,
  restarted: restart,
};
