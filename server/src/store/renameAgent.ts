// A rename of an agent's id in one world file, in one transaction: every table that keys or names the
// agent (memories, the event log's rows and data, snapshots, plans, conversations and
// their lines, relationships both ways, LLM calls) reads as if the agent had always had the new id, so
// retrieval, replay of any earlier moment, analysis and resume all see one agent with one history.
// An `agent.renamed` event marks when it happened. Other world files are records of their own runs and
// keep the old id.
import { deflateSync, inflateSync } from 'node:zlib';
import { renameInJson } from '../core/renameInJson';
import type { WorldDb } from './WorldDb';
import { memoryLayoutOf, renameInMemoryRows } from './memoryTexts';

export interface RenameCounts {
  memories: number;
  events: number;
  snapshots: number;
  plans: number;
  conversations: number;
  relationships: number;
}

/** Whether the world's history names the id anywhere an agent is keyed (a former resident's id counts). */
export function worldHoldsAgent(world: WorldDb, id: string): boolean {
  const { db } = world;
  return (
    db.prepare('SELECT 1 FROM memories WHERE agent_id = ? LIMIT 1').get(id) !== undefined ||
    db.prepare('SELECT 1 FROM events WHERE agent_id = ? LIMIT 1').get(id) !== undefined ||
    db.prepare('SELECT 1 FROM relationships WHERE agent_id = ? OR other_id = ? LIMIT 1').get(id, id) !== undefined
  );
}

/**
 * Renames `from` to `to` in every table, then calls `mark` (which logs the `agent.renamed` event and what
 * goes with it) in the same transaction. Throws, and changes nothing, when the world already holds `to`.
 */
export function renameAgentInWorld(world: WorldDb, from: string, to: string, mark: () => void): RenameCounts {
  const { db } = world;
  const rewrite = (text: string): string | null => {
    const json: unknown = JSON.parse(text);
    const renamed = renameInJson(json, from, to);
    return renamed === json ? null : JSON.stringify(renamed);
  };
  const quoted = JSON.stringify(from);
  const counts = db.transaction((): RenameCounts => {
    if (worldHoldsAgent(world, to)) throw new Error(`this world's history already holds '${to}'`);
    let memories: number;
    // Schema 4 keys an agent once for its memories and events (memoryTexts.ts, eventRows.ts): that one row is renamed.
    const keyed = memoryLayoutOf(db) === 'rows';
    if (keyed) memories = renameInMemoryRows(db, from, to);
    else {
      memories = db.prepare('UPDATE memories SET agent_id = ? WHERE agent_id = ?').run(to, from).changes;
      for (const column of ['subject', 'object'] as const) db.prepare(`UPDATE memories SET ${column} = ? WHERE ${column} = ?`).run(to, from);
    }
    // Vectors name no agent (memoryVectors.ts): shared rows, reached through memories.vector_id, need no change.
    if (!keyed) db.prepare('UPDATE events SET agent_id = ? WHERE agent_id = ?').run(to, from);
    let events = 0;
    const setData = db.prepare('UPDATE events SET data = ? WHERE seq = ?');
    const withId = db.prepare('SELECT seq, data FROM events WHERE instr(data, ?) > 0').all(quoted) as Array<{ seq: number; data: string }>;
    for (const row of withId) {
      const data = rewrite(row.data);
      if (data !== null) (setData.run(data, row.seq), events++);
    }
    let snapshots = 0;
    const setState = db.prepare('UPDATE snapshots SET state = ? WHERE rowid = ?');
    for (const row of db.prepare('SELECT rowid AS id, state FROM snapshots').all() as Array<{ id: number; state: Buffer | string }>) {
      const text = typeof row.state === 'string' ? row.state : inflateSync(row.state).toString('utf8');
      if (!text.includes(quoted)) continue;
      const state = rewrite(text);
      if (state !== null) (setState.run(deflateSync(state, { level: 1 }), row.id), snapshots++);
    }
    const plans = db.prepare('SELECT agent_id AS agentId, day, data FROM plans WHERE agent_id = ?').all(from) as Array<{ day: number; data: string }>;
    db.prepare('DELETE FROM plans WHERE agent_id = ?').run(from);
    const putPlan = db.prepare('INSERT OR REPLACE INTO plans (agent_id, day, data) VALUES (?, ?, ?)');
    for (const p of plans) putPlan.run(to, p.day, rewrite(p.data) ?? p.data);
    const conversations =
      db.prepare('UPDATE conversations SET agent_a = ? WHERE agent_a = ?').run(to, from).changes +
      db.prepare('UPDATE conversations SET agent_b = ? WHERE agent_b = ?').run(to, from).changes;
    db.prepare('UPDATE utterances SET speaker = ? WHERE speaker = ?').run(to, from);
    const relationships =
      db.prepare('UPDATE relationships SET agent_id = ? WHERE agent_id = ?').run(to, from).changes +
      db.prepare('UPDATE relationships SET other_id = ? WHERE other_id = ?').run(to, from).changes;
    db.prepare('UPDATE llm_calls SET agent_id = ? WHERE agent_id = ?').run(to, from);
    mark();
    return { memories, events, snapshots, plans: plans.length, conversations, relationships };
  })();
  world.memories.forgetColumns(from);
  world.memories.forgetColumns(to);
  world.forgetRelationships();
  return counts;
}
