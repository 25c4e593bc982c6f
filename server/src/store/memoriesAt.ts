// The memory stream as it stood at a past game time, for replay: memories created up to then, and
// retrieval scores for a focus then. Only creation is kept per memory, not every access, so recency
// at a past moment is measured from creation (the live score uses the last access).
import type { AgentId } from '../protocol/ids';
import type { WorldDb } from './WorldDb';
import type { Memory, MemoryKind, RetrievalWeights, ScoredMemory } from './types';
import { cosine, rankAll, recencyOf } from './scoring';
import { vectorLayoutOf, vectorOf, vectorQueries } from './memoryVectors';

const COLUMNS = `id, agent_id AS agentId, kind, description, created_ms AS createdGameMs, importance, subject, predicate, object, evidence`;

interface Row {
  id: number;
  agentId: AgentId;
  kind: MemoryKind;
  description: string;
  createdGameMs: number;
  importance: number;
  subject: string | null;
  predicate: string | null;
  object: string | null;
  evidence: string;
}

function memoryAt(r: Row): Memory {
  const triple = r.subject !== null && r.predicate !== null && r.object !== null ? { subject: r.subject, predicate: r.predicate, object: r.object } : null;
  return {
    id: r.id,
    agentId: r.agentId,
    kind: r.kind,
    description: r.description,
    createdGameMs: r.createdGameMs,
    lastAccessedGameMs: r.createdGameMs,
    importance: r.importance,
    triple,
    evidenceIds: JSON.parse(r.evidence) as number[],
  };
}

/** The agent's newest memories created up to `untilGameMs`, newest first. */
export function memoriesUntil(db: WorldDb, agentId: AgentId, untilGameMs: number, limit: number, kinds?: readonly MemoryKind[]): Memory[] {
  const kindFilter = kinds ? ` AND kind IN (${kinds.map(() => '?').join(',')})` : '';
  const sql = `SELECT ${COLUMNS} FROM memories WHERE agent_id = ? AND created_ms <= ?${kindFilter} ORDER BY id DESC LIMIT ?`;
  return (db.db.prepare(sql).all(agentId, Math.floor(untilGameMs), ...(kinds ?? []), limit) as Row[]).map(memoryAt);
}

/** The top k of the memories the agent held at `gameMs`, scored for `query` then (brute force, exact over them). */
export function scoreMemoriesAt(
  db: WorldDb,
  agentId: AgentId,
  query: Float32Array,
  gameMs: number,
  k: number,
  weights: RetrievalWeights,
  decayPerGameHour: number,
): ScoredMemory[] {
  const rows = db.db.prepare(`SELECT ${COLUMNS} FROM memories WHERE agent_id = ? AND created_ms <= ?`).all(agentId, Math.floor(gameMs)) as Row[];
  if (rows.length === 0) return [];
  const vectors = new Map<number, Float32Array>();
  const ofAgent = vectorQueries(vectorLayoutOf(db.db)).ofAgent;
  for (const v of db.db.prepare(ofAgent).iterate(agentId) as IterableIterator<{ id: number; embedding: Buffer }>) vectors.set(v.id, vectorOf(v.embedding));
  const raw = rows.map(memoryAt).map((memory) => ({
    memory,
    recency: recencyOf(memory.createdGameMs, gameMs, decayPerGameHour),
    importance: memory.importance,
    relevance: vectors.has(memory.id) ? cosine(query, vectors.get(memory.id)!) : 0,
  }));
  return rankAll(raw, weights, k);
}
