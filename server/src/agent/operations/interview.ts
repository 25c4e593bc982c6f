// Talking to an agent from outside the town: the operator's interview (read-only) and whisper (the
// paper's "inner voice"), and the persona's seed memories when a world is new.
import type { AgentId } from '../../protocol/ids';
import type { Memory } from '../../store/types';
import type { CognitionContext } from '../context';
import type { AgentMemory, MemoryItem } from '../memory';
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

/** How a seeding writes: `commit` wraps each slice's writes (a transaction with its events), `stopped` ends it between slices. */
export interface SeedOptions {
  commit?: (write: () => void) => void | Promise<void>;
  stopped?: () => boolean;
}

/**
 * Writes the personas' seed memories, once, when a world is new or a persona arrives. Every persona's
 * seeds are rated at once (an LLM answers them side by side, as its concurrency allows), and they are
 * written in the list's order, a slice of residents at a time (`commit` makes each slice one
 * transaction), as soon as the slice's ratings are in; a rating that fails writes the residents before
 * it, then throws. So a start cut short leaves a prefix of the residents seeded, never a gap.
 */
export async function seed(c: CognitionContext, memory: AgentMemory, agentIds: AgentId[], gameMs: number, options: SeedOptions = {}): Promise<void> {
  const texts = agentIds.map((id) => {
    const persona = c.persona(id);
    return seedTexts(persona);
  });
  const ratings: Array<Promise<number[]>> = [];
  for (const [i, id] of agentIds.entries()) {
    ratings.push(c.mind.rateImportance(c.mindContext(id, gameMs), texts[i]));
    // The first failure is the one thrown below; the others must not surface as unhandled rejections.
    ratings[i].catch(() => {});
    if (i % SEED_AGENTS_PER_TURN === SEED_AGENTS_PER_TURN - 1) await nextTurn();
  }
  for (let from = 0; from < agentIds.length; from += SEED_AGENTS_PER_TURN) {
    if (options.stopped?.()) return;
    const slice: Array<{ agentId: AgentId; items: MemoryItem[] }> = [];
    let failure: { error: unknown } | null = null;
    for (let i = from; i < Math.min(agentIds.length, from + SEED_AGENTS_PER_TURN); i++) {
      let importance: number[];
      try {
        importance = await ratings[i];
      } catch (error) {
        failure = { error };
        break;
      }
      const items = texts[i].map((t, j) => ({ kind: 'observation' as const, description: t, importance: importance[j], gameMs }));
      slice.push({ agentId: agentIds[i], items });
    }
    // A close while the ratings were out: nothing more is written.
    if (options.stopped?.()) return;
    if (slice.length) await memory.rememberAll(slice, { commit: options.commit });
    if (failure) throw failure.error;
    await nextTurn();
  }
}

/** A persona's seed memories, in the order they are written: what it is doing now, then its seed sentences. */
export function seedTexts(persona: { currently: string; seedMemories: readonly string[] }): string[] {
  return [persona.currently, ...persona.seedMemories];
}

/**
 * Residents seeded per turn of the event loop, and per transaction of a new world's start. The offline
 * mind rates and the store writes without waiting on I/O, so seeding a town of 10,000 in one turn held
 * the server (no /healthz, no page) for the whole first start; between turns it answers, and shows the
 * clock held 'starting'. A commit per resident was most of a new world's start (each rewrote the same
 * index and vec0 pages); one per slice of 25 keeps a turn short.
 */
export const SEED_AGENTS_PER_TURN = 25;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
