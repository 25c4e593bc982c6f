// Conversations: whether two agents start talking is cognition's judgement (a `talk` Input, decided from
// what the agent remembers of the other); the sim offers the people in view as company, keeps the
// decision until both are free, and starts the conversation while they are still in sight. Lines are
// shown one per LINE_GAME_MS as cognition sends them, and the conversation ends when cognition says so,
// when it runs too long, or when one of them leaves town.
import type { AgentSimState, ConversationState, TalkBasis } from './types';
import type { ConversationEndReason } from '../protocol/events';
import type { AgentId } from '../protocol/ids';
import * as C from './constants';
import type { Step } from './state';
import { emit } from './emit';
import { setCooldown } from './apply';
import { stopWalking } from './walking';

/** Whether `a` and `b` could start talking now: both awake and out of conversations, rested, in one arena, within `radiusTiles`. */
export function canTalk(step: Step, a: AgentSimState, b: AgentSimState, radiusTiles: number): boolean {
  if (a === b || a.asleep || b.asleep || a.conversationId !== null || b.conversationId !== null) return false;
  if (a.arenaIndex < 0 || a.arenaIndex !== b.arenaIndex) return false;
  if (step.now - a.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return false;
  if (step.now - b.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return false;
  const w = step.world.map.widthTiles;
  return Math.hypot((a.tile % w) - (b.tile % w), Math.floor(a.tile / w) - Math.floor(b.tile / w)) <= radiusTiles;
}

/**
 * The people among `seen` whom `agent` could start a conversation with now, to offer its cognition.
 * Each one offered is not offered again for RECONSIDER_COMPANY_AFTER_GAME_MS (or the pair cooldown).
 */
export function companyFor(step: Step, agent: AgentSimState, seen: Iterable<AgentId>): AgentId[] {
  const out: AgentId[] = [];
  for (const id of seen) {
    const other = step.index.agents.get(id);
    if (!other || out.includes(other.spec.id) || !canTalk(step, agent, other, C.CONVERSE_RADIUS_TILES)) continue;
    const pairEnd = agent.pairCooldowns.find(([k]) => k === id)?.[1];
    if (pairEnd !== undefined && step.now - pairEnd < C.PAIR_CONVERSATION_COOLDOWN_GAME_MS) continue;
    out.push(other.spec.id);
    setCooldown(agent, id, step.now - C.PAIR_CONVERSATION_COOLDOWN_GAME_MS + C.RECONSIDER_COMPANY_AFTER_GAME_MS);
  }
  return out;
}

/** Starts the conversations cognition decided on, once both agents are free; forgets decisions that waited too long. */
export function startDecidedConversations(step: Step): void {
  for (const a of step.state.agents) {
    const intent = a.talkIntent;
    if (!intent) continue;
    const b = step.index.agents.get(intent.partnerId);
    if (!b || step.now > intent.untilGameMs) {
      a.talkIntent = null;
      continue;
    }
    // Wait for both to finish what they are thinking; the partner may still be deciding about us.
    if (a.busy || b.busy || !canTalk(step, a, b, C.VISION_RADIUS_TILES)) continue;
    a.talkIntent = null;
    if (b.talkIntent?.partnerId === a.spec.id) b.talkIntent = null;
    startConversation(step, a, b, step.world.map.arenas[a.arenaIndex].address, intent.basis);
  }
}

function startConversation(step: Step, a: AgentSimState, b: AgentSimState, arena: string, basis: TalkBasis): void {
  const now = step.now;
  const id = step.state.nextConversationId;
  emit(step, 'conversation.start', a.spec.id, { conversationId: id, a: a.spec.id, b: b.spec.id, arena, basis });
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (self.movement) stopWalking(step, self);
    step.out.changed.add(self.spec.id);
    emit(step, 'agent.action', self.spec.id, { description: `talking with ${other.spec.name}`, emoji: '💬', address: self.current.address, asleep: false });
  }
  step.out.requests.push({ kind: 'converse', conversationId: id, initiator: a.spec.id, partner: b.spec.id, gameMs: now, arena });
}

/** Shows the next queued line of each conversation when its time has come; ends finished ones. */
export function advanceConversations(step: Step): void {
  const now = step.now;
  for (const c of [...step.state.conversations]) {
    if (now >= c.nextLineGameMs && c.queued.length > 0) {
      const line = c.queued.shift()!;
      const listener = line.speaker === c.a ? c.b : c.a;
      step.out.changed.add(c.a);
      step.out.changed.add(c.b);
      emit(step, 'conversation.utterance', line.speaker, { conversationId: c.id, speaker: line.speaker, listener, text: line.text });
    } else if (c.ended && c.queued.length === 0 && now >= c.nextLineGameMs) {
      endConversation(step, c, 'finished');
    } else if (now - c.startedGameMs > C.CONVERSATION_TIMEOUT_GAME_MS) {
      endConversation(step, c, 'timeout');
    }
  }
}

export function endConversation(step: Step, c: ConversationState, reason: ConversationEndReason): void {
  step.out.changed.add(c.a);
  step.out.changed.add(c.b);
  emit(step, 'conversation.end', c.a, { conversationId: c.id, a: c.a, b: c.b, lines: c.lines, reason });
}
