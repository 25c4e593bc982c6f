// Talking to an agent from outside the town: the operator's interview (read-only) and whisper (the
// paper's "inner voice"), and the persona's seed memories when a world is new.
import type { AgentId } from '../../protocol/ids';
import type { Memory } from '../../store/types';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';
import { mentions } from '../voice';

/** A whispered thought matters at least this much, so it is not lost among mundane memories. */
const WHISPER_MIN_IMPORTANCE = 6;

/**
 * An in-character answer from retrieved memories (and, for each person the question names, memories
 * retrieved for that person). Touches nothing: lastAccessed stays as it was.
 */
export async function interview(
  c: CognitionContext,
  memory: AgentMemory,
  agentId: AgentId,
  question: string,
  gameMs: number,
): Promise<{ answer: string; memories: Memory[] }> {
  const memories = await memory.retrieve(agentId, question, gameMs, 8, false);
  for (const p of c.deps.personas.values()) {
    if (p.id === agentId || !mentions(question, p.name)) continue;
    const seen = new Set(memories.map((m) => m.id));
    memories.push(...(await memory.retrieve(agentId, p.name, gameMs, 5, false)).filter((m) => !seen.has(m.id)));
  }
  const answer = await c.mind.interview(c.mindContext(agentId, gameMs), question, memories);
  return { answer, memories };
}

/** A memory written straight into one agent's stream. */
export async function whisper(c: CognitionContext, memory: AgentMemory, agentId: AgentId, text: string, gameMs: number): Promise<Memory> {
  const persona = c.persona(agentId);
  const [rated] = await c.mind.rateImportance(c.mindContext(agentId, gameMs), [text]);
  const importance = Math.max(rated, WHISPER_MIN_IMPORTANCE);
  const [id] = await memory.remember(agentId, [
    { kind: 'thought', description: text, importance, gameMs, triple: { subject: persona.name, predicate: 'was told', object: text } },
  ]);
  return c.deps.memories.get(id)!;
}

/** Writes the persona's seed memories, once, when a world is new or the persona arrives. */
export async function seed(c: CognitionContext, memory: AgentMemory, agentId: AgentId, gameMs: number): Promise<void> {
  const persona = c.persona(agentId);
  const texts = [persona.currently, ...persona.seedMemories];
  const importance = await c.mind.rateImportance(c.mindContext(agentId, gameMs), texts);
  await memory.remember(
    agentId,
    texts.map((t, i) => ({ kind: 'observation' as const, description: t, importance: importance[i], gameMs })),
  );
}
