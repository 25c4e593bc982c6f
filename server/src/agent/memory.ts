// The agent side of the memory stream: writing memories (rated, embedded, logged), retrieving them, the
// news an agent might pass on, and the importance counted toward the next reflection.
import type { AgentId } from '../protocol/ids';
import type { Memory, MemoryId, MemoryInput, MemoryKind, Triple } from '../store/types';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import type { CognitionContext } from './context';

export interface MemoryItem {
  kind: MemoryKind;
  description: string;
  /** 1..10; 0 asks the mind to rate it. */
  importance: number;
  gameMs: number;
  triple?: Triple;
  evidenceIds?: MemoryId[];
}

export class AgentMemory {
  /** Summed importance of memories since each agent's last reflection. */
  private readonly sinceReflection = new Map<string, number>();

  constructor(private readonly c: CognitionContext) {
    for (const id of c.deps.personas.keys()) this.resumeReflectionCounter(id as AgentId);
  }

  /** Rates (where asked), embeds, stores and logs memories; returns their ids in order. */
  async remember(agentId: AgentId, items: MemoryItem[], countTowardReflection = true): Promise<MemoryId[]> {
    if (items.length === 0) return [];
    const { deps } = this.c;
    const persona = this.c.persona(agentId);
    const unrated = items.filter((i) => i.importance <= 0);
    if (unrated.length) {
      const ratings = await this.c.mind.rateImportance(this.c.mindContext(agentId, items[0].gameMs), unrated.map((u) => u.description));
      unrated.forEach((u, i) => (u.importance = ratings[i]));
    }
    const vectors = await deps.embedder.embed(items.map((i) => i.description));
    const inputs: MemoryInput[] = items.map((item, i) => ({
      agentId,
      kind: item.kind,
      description: item.description,
      createdGameMs: item.gameMs,
      importance: clampImportance(item.importance),
      triple: item.triple ?? null,
      evidenceIds: item.evidenceIds ?? [],
      embedding: vectors[i],
    }));
    const ids = deps.memories.add(inputs);
    if (countTowardReflection) this.sinceReflection.set(agentId, this.pendingImportance(agentId) + inputs.reduce((s, m) => s + m.importance, 0));
    deps.emit(
      inputs.map((m, i) => ({
        gameMs: m.createdGameMs,
        kind: 'memory.created' as const,
        agentId,
        data: { id: ids[i], kind: m.kind, description: m.description, importance: m.importance, evidence: m.evidenceIds ?? [], by: persona.name },
      })),
    );
    return ids;
  }

  /** The top k memories for a query; `touch` false leaves lastAccessed alone (interviews, the inspector). */
  async retrieve(agentId: AgentId, query: string, gameMs: number, k: number, touch = true): Promise<Memory[]> {
    const { deps, settings } = this.c;
    if (deps.memories.count(agentId) === 0) return [];
    const [vector] = await deps.embedder.embed([query]);
    return deps.memories
      .retrieve({ agentId, query: vector, nowGameMs: gameMs, k, weights: settings.retrievalWeights, decayPerGameHour: settings.decayPerGameHour, touch })
      .map((s) => s.memory);
  }

  /** What the agent might tell someone: its most important recent memories that are not plans. */
  news(agentId: AgentId, gameMs: number): Memory[] {
    const horizon = gameMs - 48 * GAME_MS_PER_HOUR;
    return this.c.deps.memories
      .recent(agentId, 150, ['observation', 'chat', 'thought'])
      .filter((m) => m.importance >= 6 && m.createdGameMs >= horizon && m.triple?.predicate !== 'talked with')
      .sort((a, b) => b.importance - a.importance || b.id - a.id)
      .slice(0, 3);
  }

  pendingImportance(agentId: string): number {
    return this.sinceReflection.get(agentId) ?? 0;
  }

  resetReflectionCounter(agentId: string): void {
    this.sinceReflection.set(agentId, 0);
  }

  private resumeReflectionCounter(agentId: AgentId): void {
    const through = this.c.deps.records.lastReflectedMemoryId(agentId);
    let sum = 0;
    for (const m of this.c.deps.memories.recent(agentId, 400)) {
      if (m.id <= through) break;
      if (m.kind !== 'thought') sum += m.importance;
    }
    this.sinceReflection.set(agentId, sum);
  }
}

function clampImportance(value: number): number {
  return Number.isFinite(value) ? Math.max(1, Math.min(10, Math.round(value))) : 1;
}
