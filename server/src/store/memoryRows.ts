// A row of the `memories` table (or view) as SQLite gives it, and the Memory it stands for; and the counts of the
// work retrieval does (SqliteMemoryStore, sqlRetrieval.ts, quantisedRetrieval.ts).
import type { AgentId } from '../world/types';
import type { Memory, MemoryKind } from './types';

export interface MemoryRow {
  id: number;
  agent_id: string;
  kind: MemoryKind;
  description: string;
  created_ms: number;
  last_accessed_ms: number;
  importance: number;
  subject: string | null;
  predicate: string | null;
  object: string | null;
  evidence: string;
}

export function toMemory(r: MemoryRow): Memory {
  return {
    id: r.id,
    agentId: r.agent_id as AgentId,
    kind: r.kind,
    description: r.description,
    createdGameMs: r.created_ms,
    lastAccessedGameMs: r.last_accessed_ms,
    importance: r.importance,
    triple: r.subject !== null && r.predicate !== null && r.object !== null ? { subject: r.subject, predicate: r.predicate, object: r.object } : null,
    evidenceIds: JSON.parse(r.evidence) as number[],
  };
}

/** Counts of the work retrieval did, for tests and benchmarks. */
export interface RetrievalStats {
  /** Candidate rounds of the SQL path. */
  rounds: number;
  fullScans: number;
  /** Retrievals answered from the column cache. */
  columnScans: number;
  /** Of those: exact relevances read from stored vectors, memories whose stage-1 bound reached the
   * top k, and memories whose int4 residual was read (quantisedRetrieval.ts). */
  exactReads: number;
  candidates: number;
  refined: number;
}
