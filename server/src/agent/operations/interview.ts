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

/**
 * Writes the personas' seed memories, once, when a world is new or a persona arrives. Every persona's
 * seeds are rated at once (an LLM answers them side by side, as its concurrency allows), and each
 * persona's memories are written in the list's order as soon as its rating and those before it are in,
 * so a start cut short leaves a prefix of the residents seeded, never a gap.
 */
export async function seed(c: CognitionContext, memory: AgentMemory, agentIds: AgentId[], gameMs: number): Promise<void> {
  const texts = agentIds.map((id) => {
    const persona = c.persona(id);
    return [persona.currently, ...persona.seedMemories];
  });
  const ratings: Array<Promise<number[]>> = [];
  for (const [i, id] of agentIds.entries()) {
    ratings.push(c.mind.rateImportance(c.mindContext(id, gameMs), texts[i]));
    // The first failure is the one thrown below; the others must not surface as unhandled rejections.
    ratings[i].catch(() => {});
    if (i % SEED_AGENTS_PER_TURN === SEED_AGENTS_PER_TURN - 1) await nextTurn();
  }
  for (const [i, agentId] of agentIds.entries()) {
    const importance = await ratings[i];
    await memory.remember(
      agentId,
      texts[i].map((t, j) => ({ kind: 'observation' as const, description: t, importance: importance[j], gameMs })),
    );
    if (i % SEED_AGENTS_PER_TURN === SEED_AGENTS_PER_TURN - 1) await nextTurn();
  }
}

/**
 * Residents seeded per turn of the event loop. The offline mind rates and the store writes without
 * waiting on I/O, so seeding a town of 10,000 in one turn held the server (no /healthz, no page) for
 * the whole first start; between turns it answers, and shows the clock held 'starting'.
 */
const SEED_AGENTS_PER_TURN = 25;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
