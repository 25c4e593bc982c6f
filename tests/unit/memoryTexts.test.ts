// Memories' rows without repeated text (memoryTexts.ts, schema 4): each distinct text stored once, agents by an
// integer key, and `memories` a view with the table's columns and values. Every memory and every event reads
// back exactly as written, through every reader; an older file (schema 3) reads as it is and migrates to the same
// rows; and the checks here can fail (texts that hash alike, a memory pointed at another text).
import { MIGRATIONS } from '../../server/src/store/migrations';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { memoryLayoutOf, MemoryRowWriter, TextRows, textHash } from '../../server/src/store/memoryTexts';
import { memoriesUntil } from '../../server/src/store/memoriesAt';
import { eventLayoutOf } from '../../server/src/store/eventRows';
import type { Memory, MemoryInput } from '../../server/src/store/types';
import type { EventInput } from '../../server/src/protocol/events';
import { Rng } from '../../server/src/sim/rng';
import { asAgentId } from '../../server/src/world/types';
import { takeFileBackToMemoryTable } from '../fixtures/oldMemoryRows';
import { renameAgentInWorld } from '../../server/src/store/renameAgent';

const DIMENSION = 4;
const EMBEDDING = { model: 'm', dimension: DIMENSION };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-texts-'));
  dirs.push(dir);
  return path.join(dir, 'world.sqlite');
};

/** A town's memories: few texts (with and without a triple), noted again by one agent and by many, some citing evidence. */
function townMemories(seed: number, n: number): MemoryInput[] {
  const rng = new Rng(seed);
  const people = ['Ada Lovelace', 'Bo Chen', 'Cole Cruz'];
  const doings = ['is sleeping', 'is reading', 'is writing a story'];
  const kinds = ['observation', 'observation', 'observation', 'chat', 'thought', 'plan'] as const;
  return Array.from({ length: n }, (_, i) => {
    const who = people[rng.int(0, people.length - 1)];
    const doing = doings[rng.int(0, doings.length - 1)];
    const withTriple = rng.int(0, 3) > 0;
    return {
      agentId: asAgentId(`agent${rng.int(0, 5)}`),
      kind: kinds[rng.int(0, kinds.length - 1)],
      description: `${who} ${doing}`,
      createdGameMs: i * 60_000,
      importance: rng.int(1, 10),
      // The same words with another triple are another text.
      triple: withTriple ? { subject: who, predicate: 'is', object: rng.int(0, 1) ? doing.slice(3) : doing } : undefined,
      evidenceIds: i > 3 && rng.int(0, 4) === 0 ? [1, 2] : [],
      embedding: new Float32Array([rng.int(0, 2), 1, 0, 0]),
    };
  });
}

/** What a memory holds, as the writer gave it (its id and accesses aside). */
const written = (m: MemoryInput) => ({
  agentId: m.agentId,
  kind: m.kind,
  description: m.description,
  createdGameMs: m.createdGameMs,
  importance: m.importance,
  triple: m.triple ?? null,
  evidenceIds: m.evidenceIds ?? [],
});
const held = (m: Memory) => ({
  agentId: m.agentId,
  kind: m.kind,
  description: m.description,
  createdGameMs: m.createdGameMs,
  importance: m.importance,
  triple: m.triple,
  evidenceIds: m.evidenceIds,
});

/** The memories whose row, read back through the store, is not what was written. */
function mismatches(world: WorldDb, ids: number[], inputs: MemoryInput[]): number[] {
  return ids.filter((id, i) => {
    const m = world.memories.get(id);
    return !m || JSON.stringify(held(m)) !== JSON.stringify(written(inputs[i]));
  });
}

const allRows = (world: WorldDb) => world.db.prepare('SELECT * FROM memories ORDER BY id').all();
const count = (world: WorldDb, table: string) => world.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('memories without repeated text', () => {
  it('stores each distinct text once and each agent once, and every memory reads back as written through every reader', () => {
    const inputs = townMemories(1, 800);
    const world = openWorldDb(':memory:', EMBEDDING);
    expect(memoryLayoutOf(world.db)).toBe('rows');
    const ids = world.memories.add(inputs);
    expect(mismatches(world, ids, inputs)).toEqual([]);
    const texts = new Set(inputs.map((m) => JSON.stringify([m.description, m.triple ?? null])));
    expect(count(world, 'memory_texts')).toBe(texts.size);
    expect(count(world, 'memory_texts')).toBeLessThan(40);
    expect(count(world, 'agents')).toBe(new Set(inputs.map((m) => m.agentId)).size);
    // The per-agent readers: newest first, by kind, replay's memories up to a time, the search.
    for (const agent of new Set(inputs.map((m) => m.agentId))) {
      const mine = inputs.map((m, i) => ({ m, id: ids[i] })).filter((x) => x.m.agentId === agent);
      const newest = mine.slice(-50).reverse();
      expect(world.memories.recent(agent, 50).map(held)).toEqual(newest.map((x) => written(x.m)));
      expect(world.memories.recent(agent, 500, ['chat', 'plan']).map((m) => m.id)).toEqual(
        mine
          .filter((x) => x.m.kind === 'chat' || x.m.kind === 'plan')
          .map((x) => x.id)
          .reverse(),
      );
      expect(memoriesUntil(world, agent, 200 * 60_000, 1000).map(held)).toEqual(
        mine
          .filter((x) => x.m.createdGameMs <= 200 * 60_000)
          .map((x) => written(x.m))
          .reverse(),
      );
      expect(world.memories.count(agent)).toBe(mine.length);
    }
    // A touch is kept (a memory never touched reads its creation as its last access).
    const [top] = world.memories.retrieve({
      agentId: inputs[0].agentId,
      query: new Float32Array([1, 1, 0, 0]),
      nowGameMs: 10_000 * 60_000,
      k: 1,
      weights: { recency: 1, importance: 1, relevance: 1 },
      decayPerGameHour: 0.99,
    });
    expect(world.memories.get(top.memory.id)!.lastAccessedGameMs).toBe(10_000 * 60_000);
    expect(world.memories.get(ids[1])!.lastAccessedGameMs).toBe(inputs[1].createdGameMs);
    world.close();
  });

  it('keeps different texts apart when their hashes collide (and a check that a memory reads its own text can fail)', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    // Every text hashes alike: only the comparison of their words keeps them apart.
    const writer = new MemoryRowWriter(world.db, () => 7);
    const inputs = townMemories(2, 300);
    const ids = world.db.transaction(() =>
      inputs.map((m) =>
        writer.add({
          agentId: m.agentId,
          kind: m.kind,
          description: m.description,
          subject: m.triple?.subject ?? null,
          predicate: m.triple?.predicate ?? null,
          object: m.triple?.object ?? null,
          createdMs: m.createdGameMs,
          importance: m.importance,
          evidence: JSON.stringify(m.evidenceIds ?? []),
          vectorId: null,
        }),
      ),
    )();
    expect(new Set(world.db.prepare('SELECT hash FROM memory_texts').pluck().all())).toEqual(new Set([7]));
    expect(count(world, 'memory_texts')).toBe(new Set(inputs.map((m) => JSON.stringify([m.description, m.triple ?? null]))).size);
    expect(mismatches(world, ids, inputs)).toEqual([]);
    // The same words with and without a triple, or with another triple, are different texts.
    const rows = new TextRows(world.db, () => 7);
    const a = rows.idOf({ description: 'x', subject: null, predicate: null, object: null });
    expect(rows.idOf({ description: 'x', subject: 'x', predicate: null, object: null })).not.toBe(a);
    expect(rows.idOf({ description: 'x', subject: null, predicate: null, object: null })).toBe(a);
    expect(textHash({ description: 'a', subject: 'b', predicate: null, object: null })).not.toBe(
      textHash({ description: 'a b', subject: null, predicate: null, object: null }),
    );
    // The control: a memory pointed at another memory's text is caught.
    const other = world.db.prepare('SELECT text_id FROM memory_rows WHERE id = ?').pluck().get(ids[0]) as number;
    const victim = ids.findIndex((_, i) => inputs[i].description !== inputs[0].description);
    world.db.prepare('UPDATE memory_rows SET text_id = ? WHERE id = ?').run(other, ids[victim]);
    expect(mismatches(world, ids, inputs)).toEqual([ids[victim]]);
    world.close();
  });

  it('gives every memory.created event back as logged, and catches one resolved against the wrong memory', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    const inputs = townMemories(3, 200);
    const ids = world.memories.add(inputs);
    const events: EventInput[] = ids.map((id, i) => ({
      gameMs: inputs[i].createdGameMs,
      kind: 'memory.created',
      agentId: inputs[i].agentId,
      data: { id, kind: inputs[i].kind, description: inputs[i].description, importance: inputs[i].importance, evidence: inputs[i].evidenceIds ?? [], by: 'X' },
    }));
    world.events.append(events);
    // Kept as a reference to the memory (eventForms.ts), read back whole.
    expect(JSON.parse(world.db.prepare('SELECT data FROM events WHERE seq = 1').pluck().get() as string)).toEqual({ id: ids[0], by: 'X' });
    const readBack = () => [...world.events.scan()].map((e) => JSON.stringify(e.data));
    expect(readBack()).toEqual(events.map((e) => JSON.stringify(e.data)));
    // The control: the first memory's row pointed at a text it never had reads back another event.
    const foreign = world.db
      .prepare('SELECT text_id FROM memory_rows WHERE text_id != (SELECT text_id FROM memory_rows WHERE id = ?) LIMIT 1')
      .pluck()
      .get(ids[0]) as number;
    world.db.prepare('UPDATE memory_rows SET text_id = ? WHERE id = ?').run(foreign, ids[0]);
    const changed = readBack()
      .map((e, i) => (e === JSON.stringify(events[i].data) ? -1 : i))
      .filter((i) => i >= 0);
    expect(changed).toEqual([0]);
    world.close();
  });

  it('reads each agent from its key, and skips the texts where a query reads none (EXPLAIN QUERY PLAN)', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    world.memories.add(townMemories(4, 50));
    const plan = (sql: string) => (world.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('agent1') as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    const byAgent = plan('SELECT * FROM memories WHERE agent_id = ? ORDER BY id DESC LIMIT 5');
    expect(byAgent).toMatch(/SEARCH a USING COVERING INDEX .*\(id=\?\)/);
    expect(byAgent).toMatch(/SEARCH r USING INDEX memory_rows_agent \(agent=\?\)/);
    expect(byAgent).not.toMatch(/SCAN|TEMP B-TREE/);
    // The column cache's load reads no text: the join to memory_texts is left out.
    const load = plan('SELECT id, importance, last_accessed_ms, created_ms, kind FROM memories WHERE agent_id = ? ORDER BY id');
    expect(load).not.toMatch(/memory_texts|SEARCH t /);
    expect(load).not.toMatch(/SCAN|TEMP B-TREE/);
    world.close();
  });
});

describe('a rename over keyed rows', () => {
  it('renames the agent once for its memories and events, and the texts naming it, which new memories still share', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    const ada = asAgentId('ada');
    const bo = asAgentId('bo');
    const noted = (agentId: typeof ada, subject: string): MemoryInput => ({
      agentId,
      kind: 'observation',
      description: 'Ada is reading',
      createdGameMs: 0,
      importance: 2,
      triple: { subject, predicate: 'is', object: 'reading' },
      embedding: new Float32Array([1, 0, 0, 0]),
    });
    const [mine, bos] = world.memories.add([noted(ada, 'ada'), noted(bo, 'ada')]);
    world.events.append([{ gameMs: 0, kind: 'agent.action', agentId: ada, data: { description: 'reading' } }] as EventInput[]);
    expect(count(world, 'memory_texts')).toBe(1);
    const counts = renameAgentInWorld(world, 'ada', 'ada-2', () => {});
    expect(counts.memories).toBe(1);
    expect(world.memories.get(mine)).toMatchObject({ agentId: 'ada-2', triple: { subject: 'ada-2' } });
    // Bo's memory shared the text: it names the new id too, as renaming each row did.
    expect(world.memories.get(bos)).toMatchObject({ agentId: 'bo', triple: { subject: 'ada-2' } });
    expect([...world.events.scan()].map((e) => e.agentId)).toEqual(['ada-2']);
    expect(world.db.prepare('SELECT id FROM agents ORDER BY key').pluck().all()).toEqual(['ada-2', 'bo']);
    // The renamed text was hashed again: the same words noted now find it.
    world.memories.add([noted(bo, 'ada-2')]);
    expect(count(world, 'memory_texts')).toBe(1);
    world.close();
  });
});

describe('event rows keyed by kind and agent', () => {
  it('reads every event back as logged, whoever writes it (the log, or SQL through the view)', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    const events: EventInput[] = [
      { gameMs: 1, kind: 'run.started', agentId: null, data: { seed: 1 } },
      { gameMs: 2, kind: 'agent.action', agentId: asAgentId('ada'), data: { description: 'reading' } },
      { gameMs: 2, kind: 'status.revised', agentId: asAgentId('bo'), data: { day: 1, currently: 'baking' } },
      { gameMs: 3, kind: 'agent.action', agentId: asAgentId('bo'), data: { description: 'baking' } },
    ] as EventInput[];
    world.events.append(events);
    const logged = [...world.events.scan()];
    expect(logged.map((e) => [e.seq, e.gameMs, e.kind, e.agentId, JSON.stringify(e.data)])).toEqual(
      events.map((e, i) => [i + 1, e.gameMs, e.kind, e.agentId, JSON.stringify(e.data)]),
    );
    // Each agent and kind once, as a key (the agents table is the memories' too).
    expect(world.db.prepare('SELECT agent, kind FROM event_rows ORDER BY seq').raw().all()).toEqual([
      [null, world.db.prepare("SELECT key FROM event_kinds WHERE name = 'run.started'").pluck().get()],
      [1, world.db.prepare("SELECT key FROM event_kinds WHERE name = 'agent.action'").pluck().get()],
      [2, world.db.prepare("SELECT key FROM event_kinds WHERE name = 'status.revised'").pluck().get()],
      [2, world.db.prepare("SELECT key FROM event_kinds WHERE name = 'agent.action'").pluck().get()],
    ]);
    expect([...world.events.scan({ agentId: asAgentId('bo'), kinds: ['agent.action'] })].map((e) => e.seq)).toEqual([4]);
    expect(world.statusOf(asAgentId('bo'))).toBe('baking');
    // SQL through the view, as tests and tools write: a kind and an agent the file never had, a rewrite, a delete.
    world.db.prepare("INSERT INTO events (seq, game_ms, kind, agent_id, data) VALUES (5, 4, 'legacy.kind', 'cy', '{}')").run();
    world.db.prepare('UPDATE events SET data = \'{"description":"napping"}\' WHERE seq = 2').run();
    world.db.prepare('DELETE FROM events WHERE seq = 3').run();
    expect(world.db.prepare('SELECT seq, game_ms, kind, agent_id, data FROM events ORDER BY seq').raw().all()).toEqual([
      [1, 1, 'run.started', null, '{"seed":1}'],
      [2, 2, 'agent.action', 'ada', '{"description":"napping"}'],
      [4, 3, 'agent.action', 'bo', '{"description":"baking"}'],
      [5, 4, 'legacy.kind', 'cy', '{}'],
    ]);
    world.close();
  });

  it('reads an agent from its key and a kind in seq order, as the table did (EXPLAIN QUERY PLAN)', () => {
    const world = openWorldDb(':memory:', EMBEDDING);
    const plan = (sql: string, ...args: unknown[]) =>
      (world.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    const byAgent = plan("SELECT * FROM events WHERE agent_id = ? AND kind IN ('status.revised') ORDER BY seq DESC LIMIT 1", 'ada');
    expect(byAgent).toMatch(/SEARCH e USING INDEX event_rows_agent \(agent=\?\)/);
    expect(byAgent).not.toMatch(/SCAN|TEMP B-TREE/);
    // By kind: one pass over the log in seq order (a join on the kind would pass once for each kind asked for).
    const byKind = plan("SELECT * FROM events WHERE kind IN ('run.started', 'run.resumed') ORDER BY seq DESC LIMIT 1");
    expect(byKind.match(/SCAN e/g)).toHaveLength(1);
    expect(byKind).not.toMatch(/TEMP B-TREE/);
    expect(plan('SELECT * FROM events WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT 10', 1, 5)).toMatch(/SEARCH e USING INTEGER PRIMARY KEY/);
    world.close();
  });
});

describe('a file made before schema 4 (the memories and events tables)', () => {
  it('reads as it is read-only, and moves its rows when opened live, every memory and event the same', () => {
    const file = tempFile();
    const inputs = townMemories(5, 600);
    let world = openWorldDb(file, EMBEDDING);
    const ids = world.memories.add(inputs);
    world.events.append(
      ids.map((id, i) => ({
        gameMs: i,
        kind: 'memory.created',
        agentId: inputs[i].agentId,
        data: {
          id,
          kind: inputs[i].kind,
          description: inputs[i].description,
          importance: inputs[i].importance,
          evidence: inputs[i].evidenceIds ?? [],
          by: 'X',
        },
      })),
    );
    world.memories.retrieve({
      agentId: inputs[0].agentId,
      query: new Float32Array([1, 1, 0, 0]),
      nowGameMs: 999 * 60_000,
      k: 3,
      weights: { recency: 1, importance: 1, relevance: 1 },
      decayPerGameHour: 0.99,
    });
    const rows = allRows(world);
    const events = [...world.events.scan()];
    world.close();
    takeFileBackToMemoryTable(file);
    const raw = new Database(file, { readonly: true });
    expect([raw.pragma('user_version', { simple: true }), memoryLayoutOf(raw), eventLayoutOf(raw)]).toEqual([3, 'table', 'table']);
    raw.close();

    const old = openWorldDb(file, null, { readonly: true });
    expect(old.schemaVersion).toBe(3);
    expect(allRows(old)).toEqual(rows);
    expect([...old.events.scan()]).toEqual(events);
    old.close();

    world = openWorldDb(file, EMBEDDING);
    expect([world.schemaVersion, memoryLayoutOf(world.db), eventLayoutOf(world.db)]).toEqual([MIGRATIONS.length, 'rows', 'rows']);
    expect(allRows(world)).toEqual(rows);
    expect([...world.events.scan()]).toEqual(events);
    expect(mismatches(world, ids, inputs)).toEqual([]);
    // It lives on: the next memory takes the next id, and shares the moved texts.
    const texts = count(world, 'memory_texts');
    const [next] = world.memories.add([inputs[0]]);
    expect(next).toBe(ids[ids.length - 1] + 1);
    expect(count(world, 'memory_texts')).toBe(texts);
    world.close();
  });
});
