// The memory stream in plain arrays, scored by brute force: the reference implementation the SQLite
// store is tested against, and a fast store for tests.
import type { AgentId } from '../world/types';
import type { Memory, MemoryId, MemoryInput, MemoryKind, MemoryStore, RetrievalOptions, ScoredMemory } from './types';
import { cosine, rankAll, recencyOf } from './scoring';

interface Row {
  memory: Memory;
  embedding: Float32Array;
}

export class InMemoryMemoryStore implements MemoryStore {
  private readonly rows: Row[] = [];
  private readonly byId = new Map<MemoryId, Row>();

  add(memories: MemoryInput[]): MemoryId[] {
    return memories.map((m) => {
      const id = this.rows.length + 1;
      const row: Row = {
        memory: {
          id,
          agentId: m.agentId,
          kind: m.kind,
          description: m.description,
          createdGameMs: m.createdGameMs,
          lastAccessedGameMs: m.createdGameMs,
          importance: m.importance,
          triple: m.triple ?? null,
          evidenceIds: m.evidenceIds ?? [],
        },
        embedding: Float32Array.from(m.embedding),
      };
      this.rows.push(row);
      this.byId.set(id, row);
      return id;
    });
  }

  get(id: MemoryId): Memory | undefined {
    const row = this.byId.get(id);
    return row ? { ...row.memory } : undefined;
  }

  recent(agentId: AgentId, limit: number, kinds?: readonly MemoryKind[]): Memory[] {
    const out: Memory[] = [];
    for (let i = this.rows.length - 1; i >= 0 && out.length < limit; i--) {
      const m = this.rows[i].memory;
      if (m.agentId === agentId && (!kinds || kinds.includes(m.kind))) out.push({ ...m });
    }
    return out;
  }

  since(agentId: AgentId, sinceGameMs: number, kinds: readonly MemoryKind[], minImportance = 0): Memory[] {
    const out: Memory[] = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const m = this.rows[i].memory;
      if (m.agentId === agentId && kinds.includes(m.kind) && m.createdGameMs >= sinceGameMs && m.importance >= minImportance) out.push({ ...m });
    }
    return out;
  }

  count(agentId?: AgentId): number {
    return agentId === undefined ? this.rows.length : this.rows.filter((r) => r.memory.agentId === agentId).length;
  }

  retrieve(o: RetrievalOptions): ScoredMemory[] {
    const rows = this.rows.filter((r) => r.memory.agentId === o.agentId && (!o.kinds || o.kinds.includes(r.memory.kind)));
    const top = rankAll(
      rows.map((r) => ({
        memory: r.memory,
        recency: recencyOf(r.memory.lastAccessedGameMs, o.nowGameMs, o.decayPerGameHour),
        importance: r.memory.importance,
        relevance: cosine(o.query, r.embedding),
      })),
      o.weights,
      o.k,
    ).map((s) => ({ ...s, memory: { ...s.memory } }));
    if (o.touch !== false) for (const s of top) this.byId.get(s.memory.id)!.memory.lastAccessedGameMs = o.nowGameMs;
    return top;
  }

  search(agentId: AgentId, text: string, limit: number): Memory[] {
    const needle = text.toLowerCase();
    return this.recent(agentId, Number.MAX_SAFE_INTEGER)
      .filter((m) => m.description.toLowerCase().includes(needle))
      .slice(0, limit);
  }
}
