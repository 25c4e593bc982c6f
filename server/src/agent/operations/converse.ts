// A conversation, turn by turn: each speaker retrieves memories about the partner and the last line,
// and has its most important news at hand; each line goes straight to the sim. Then a summary and what
// each learned go into both streams, the relationship is updated, and both may reflect.
import type { AgentId } from '../../protocol/ids';
import type { Input } from '../../sim/types';
import type { Persona } from '../../world/persona';
import type { ConversationLine } from '../mind';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';
import { maybeReflect } from './reflect';

export async function converse(
  c: CognitionContext,
  memory: AgentMemory,
  conversationId: number,
  initiator: AgentId,
  partner: AgentId,
  gameMs: number,
  send: (input: Input) => void,
): Promise<void> {
  const people: [Persona, Persona] = [c.persona(initiator), c.persona(partner)];
  const lines: ConversationLine[] = [];
  const max = c.settings.maxConversationTurns;
  for (let turn = 0; turn < max; turn++) {
    const [speaker, listener] = turn % 2 === 0 ? people : [people[1], people[0]];
    const lastLine = lines.length ? lines[lines.length - 1].text : '';
    const memories = await memory.retrieve(speaker.id, `${listener.name} ${lastLine}`, gameMs, 5);
    const reply = await c.mind.converseTurn(c.mindContext(speaker.id, gameMs), {
      partner: listener,
      relationship: speaker.relationships[listener.id] ?? null,
      memories,
      news: memory.news(speaker.id, gameMs),
      history: lines,
      turn,
      maxTurns: max,
    });
    const text = reply.text.trim();
    if (text) {
      lines.push({ speaker: speaker.id, speakerName: speaker.name, text });
      send({ kind: 'utterance', conversationId, speaker: speaker.id, text });
    }
    if (reply.end) break;
  }
  const summary = await c.mind.summariseConversation(c.mindContext(initiator, gameMs), people, lines);
  // Both participants remember at once: their importance ratings are independent calls.
  await Promise.all(
    [people, [people[1], people[0]] as const].map(async ([self, other]) => {
      const learned = summary.learned[self.id] ?? [];
      await memory.remember(self.id, [
        { kind: 'chat', description: summary.summary, importance: 0, gameMs, triple: { subject: self.name, predicate: 'talked with', object: other.name } },
        ...learned.map((fact) => ({
          kind: 'chat' as const,
          description: `${fact} (heard from ${other.name})`,
          importance: 0,
          gameMs,
          triple: { subject: other.name, predicate: 'said', object: fact },
        })),
      ]);
      c.deps.records.touchRelationship(self.id, other.id, summary.summary, gameMs);
    }),
  );
  c.deps.records.saveConversation({
    id: conversationId,
    a: initiator,
    b: partner,
    startGameMs: gameMs,
    endGameMs: gameMs,
    summary: summary.summary,
    lines: lines.map((l) => ({ speaker: l.speaker as AgentId, text: l.text, gameMs })),
  });
  await Promise.all([maybeReflect(c, memory, initiator, gameMs), maybeReflect(c, memory, partner, gameMs)]);
}
