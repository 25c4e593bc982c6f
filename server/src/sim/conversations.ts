// Conversations: two agents who meet may start talking (one roll per encounter), their lines are shown
// one per LINE_GAME_MS as cognition sends them, and the conversation ends when cognition says so, when
// it runs too long, or when one of them leaves town.
import type { AgentSimState, ConversationState } from './types';
import type { ConversationEndReason } from '../protocol/events';
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import * as C from './constants';
import type { Step } from './state';
import { emit } from './emit';
import { setCooldown } from './apply';
import { stopWalking } from './walking';

export function maybeStartConversation(step: Step, a: AgentSimState, b: AgentSimState, arena: string): void {
  const now = step.now;
  if (a.busy || b.busy || a.asleep || b.asleep || a.conversationId !== null || b.conversationId !== null) return;
  if (now - a.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return;
  if (now - b.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return;
  const pairEnd = a.pairCooldowns.find(([id]) => id === b.spec.id)?.[1];
  if (pairEnd !== undefined && now - pairEnd < C.PAIR_CONVERSATION_COOLDOWN_GAME_MS) return;
  if (!step.rng.chance(C.CONVERSE_CHANCE)) {
    // One roll per encounter: without this the pair would re-roll every step until it succeeds.
    const retryAt = now - C.PAIR_CONVERSATION_COOLDOWN_GAME_MS + 30 * GAME_MS_PER_MINUTE;
    setCooldown(a, b.spec.id, retryAt);
    setCooldown(b, a.spec.id, retryAt);
    return;
  }
  const id = step.state.nextConversationId;
  emit(step, 'conversation.start', a.spec.id, { conversationId: id, a: a.spec.id, b: b.spec.id, arena });
  for (const [self, other] of [[a, b], [b, a]] as const) {
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
