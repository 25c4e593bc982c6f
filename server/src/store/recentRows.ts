// Each agent's newest memories, newest first, held for SqliteMemoryStore.recent: it is asked on every conversation
// turn, for the news worth telling, and reading 150 rows each time was 7% of an offline day. Up to RECENT_ROWS an
// agent, RECENT_ROWS_TOTAL in all, least recently asked dropped first. Kept true by every write the store makes, and
// dropped where its columns are (a rename, a rollback).
import type { AgentId } from '../world/types';
import type { Memory, MemoryInput } from './types';

/**
 * The most of an agent's newest memories held for `recent` (enough for the 150 of three kinds the news
 * asks for on every talk turn; a larger ask reads the file), and in all: 1,000 agents' worth (~50 MB). A
 * town of a thousand talks among all of them: at 200 agents' worth (40,000 rows) its agents were read
 * back from the file on most turns, 11 % of the server's busy CPU (a profile of the soak at 13:00).
 */
export const RECENT_ROWS = 200;
export const RECENT_ROWS_TOTAL = 200_000;

export interface HeldRows {
  rows: Memory[];
  /** Whether these are every memory the agent has. */
  complete: boolean;
}

export class RecentRows {
  private readonly held = new Map<AgentId, HeldRows>();
  private total = 0;

  constructor(
    /** Reads an agent's newest rows from the file, newest first. */
    private readonly readNewest: (agentId: AgentId, limit: number) => Memory[],
    /** The most rows held, all agents together. */
    private readonly maxTotal = RECENT_ROWS_TOTAL,
  ) {}

  /** The rows held, all agents together. */
  get size(): number {
    return this.total;
  }

  /** The agent's newest rows, read on first use, marked most recently asked. */
  of(agentId: AgentId): HeldRows {
    let held = this.held.get(agentId);
    if (held) {
      this.held.delete(agentId);
      this.held.set(agentId, held);
      return held;
    }
    const rows = this.readNewest(agentId, RECENT_ROWS);
    held = { rows, complete: rows.length < RECENT_ROWS };
    this.held.set(agentId, held);
    this.total += rows.length;
    this.keepTotal(agentId);
    return held;
  }

  /** A memory just written, at the front of its agent's newest rows when they are held. */
  added(m: MemoryInput, id: number, created: number, triple: MemoryInput['triple']): void {
    const held = this.held.get(m.agentId);
    if (!held) return;
    held.rows.unshift({
      id,
      agentId: m.agentId,
      kind: m.kind,
      description: m.description,
      createdGameMs: created,
      lastAccessedGameMs: created,
      importance: m.importance,
      triple: triple ? { subject: triple.subject, predicate: triple.predicate, object: triple.object } : null,
      evidenceIds: [...(m.evidenceIds ?? [])],
    });
    if (held.rows.length > RECENT_ROWS) {
      held.rows.pop();
      held.complete = false;
    } else {
      // A write grows the rows held as a load does: without this, agents held while their days were young grew to
      // RECENT_ROWS each, past the total (a town of a thousand held ~195,000 rows against 40,000 by the evening).
      this.total++;
      this.keepTotal(m.agentId);
    }
  }

  /** The memories a retrieval returned were accessed at `nowGameMs`. */
  touched(agentId: AgentId, memoryIds: readonly number[], nowGameMs: number): void {
    const held = this.held.get(agentId);
    if (!held) return;
    const touched = new Set(memoryIds);
    for (const m of held.rows) if (touched.has(m.id)) m.lastAccessedGameMs = nowGameMs;
  }

  forget(agentId: AgentId, held = this.held.get(agentId)): void {
    if (!held) return;
    this.held.delete(agentId);
    this.total -= held.rows.length;
  }

  clear(): void {
    this.held.clear();
    this.total = 0;
  }

  /** Drops the least recently asked agents' rows (never `keep`'s) until the rows held are within the total. */
  private keepTotal(keep: AgentId): void {
    for (const [other, h] of this.held) {
      if (this.total <= this.maxTotal) break;
      if (other !== keep) this.forget(other, h);
    }
  }
}
