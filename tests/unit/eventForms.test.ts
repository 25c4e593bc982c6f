// How events are kept in the world file (store/eventForms.ts): `memory.created` as a reference to its
// memory row and `plan.made` with its actions as arrays, read back as exactly what was written; payloads
// the packer cannot reproduce, and files written before packing (full payloads), read as they are.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { EventInput, LoggedEvent } from '../../server/src/protocol/events';
import { asAgentId } from '../../server/src/protocol/ids';
import { tempDir } from '../helpers';

const ADA = asAgentId('ada');
const T = Date.parse('2026-02-13T08:00:00Z');
const PLAN = {
  day: 20497,
  broadStrokes: ['1) waking up at 06:00'],
  hourBlocks: [{ startMinute: 360, durationMinutes: 60, activity: 'waking up' }],
  actions: [
    { startMinute: 360, durationMinutes: 30, description: 'waking up', emoji: '⏰', address: 'Ada House: bedroom: bed' },
    { startMinute: 390, durationMinutes: 30, description: 'reading', emoji: '📖', address: 'Ada House: bedroom: desk' },
  ],
};

function rawData(db: ReturnType<typeof openWorldDb>, seq: number): string {
  return db.db.prepare('SELECT data FROM events WHERE seq = ?').pluck().get(seq) as string;
}

function worldWithMemory() {
  const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
  const [id] = db.memories.add([
    {
      agentId: ADA,
      kind: 'thought',
      description: 'Bo seems to like the cafe',
      createdGameMs: T,
      importance: 5,
      triple: null,
      evidenceIds: [],
      embedding: new Float32Array([1, 0, 0, 0]),
    },
  ]);
  return { db, id };
}

describe('events kept packed in the world file', () => {
  it('keeps memory.created as a reference to its row and plan.made as arrays, and reads back what was written', () => {
    const { db, id } = worldWithMemory();
    const written: EventInput[] = [
      {
        gameMs: T,
        kind: 'memory.created',
        agentId: ADA,
        data: { id, kind: 'thought', description: 'Bo seems to like the cafe', importance: 5, evidence: [], by: 'Ada' },
      },
      { gameMs: T, kind: 'plan.made', agentId: ADA, data: PLAN },
      { gameMs: T, kind: 'plan.made', agentId: ADA, data: { day: PLAN.day, reason: 'a party', fromMinute: 390, actions: PLAN.actions.slice(1) } },
    ];
    db.events.append(written);
    expect(JSON.parse(rawData(db, 1))).toEqual({ id, by: 'Ada' });
    expect(JSON.parse(rawData(db, 2)).actions[0]).toEqual([360, 30, 'waking up', '⏰', 'Ada House: bedroom: bed']);
    expect(JSON.parse(rawData(db, 3)).actions).toEqual([[390, 30, 'reading', '📖', 'Ada House: bedroom: desk']]);
    for (const [i, e] of written.entries()) {
      expect(rawData(db, i + 1).length).toBeLessThan(JSON.stringify(e.data).length);
      // The very JSON that was written, key order included, through both ways of reading the log.
      expect(JSON.stringify(db.events.read(i, i + 1, 1)[0].data)).toBe(JSON.stringify(e.data));
    }
    expect([...db.events.scan()].map((e) => e.data)).toEqual(written.map((e) => e.data));
    db.close();
  });

  it('keeps as written what the packed form would not give back', () => {
    const { db, id } = worldWithMemory();
    const written: EventInput[] = [
      // The row says otherwise (another text, another agent), or there is no row.
      { gameMs: T, kind: 'memory.created', agentId: ADA, data: { id, kind: 'thought', description: 'another text', importance: 5, evidence: [], by: 'Ada' } },
      {
        gameMs: T,
        kind: 'memory.created',
        agentId: asAgentId('bo'),
        data: { id, kind: 'thought', description: 'Bo seems to like the cafe', importance: 5, evidence: [], by: 'Bo' },
      },
      { gameMs: T, kind: 'memory.created', agentId: ADA, data: { id: 99, kind: 'thought', description: 'no row', importance: 5, evidence: [], by: 'Ada' } },
      // A field the packer does not know; keys in another order.
      { gameMs: T, kind: 'plan.made', agentId: ADA, data: { ...PLAN, actions: [{ ...PLAN.actions[0], note: 'x' }] } as never },
      { gameMs: T, kind: 'plan.made', agentId: ADA, data: { ...PLAN, hourBlocks: [{ activity: 'waking up', startMinute: 360, durationMinutes: 60 }] } },
    ];
    db.events.append(written);
    written.forEach((e, i) => expect(rawData(db, i + 1)).toBe(JSON.stringify(e.data)));
    expect([...db.events.scan()].map((e) => JSON.stringify(e.data))).toEqual(written.map((e) => JSON.stringify(e.data)));
    db.close();
  });

  it('reads a log written before packing (full payloads) as it was written', () => {
    const { db, id } = worldWithMemory();
    const full = [
      { kind: 'memory.created', data: { id, kind: 'thought', description: 'Bo seems to like the cafe', importance: 5, evidence: [], by: 'Ada' } },
      { kind: 'plan.made', data: PLAN },
    ];
    // As the writer before packing appended them: the JSON of the payload.
    const insert = db.db.prepare('INSERT INTO events (seq, game_ms, kind, agent_id, data) VALUES (?, ?, ?, ?, ?)');
    full.forEach((e, i) => insert.run(i + 1, T, e.kind, ADA, JSON.stringify(e.data)));
    // The town goes on in that file: what it appends now is packed, and the log reads as one.
    db.events.append([{ gameMs: T, kind: 'plan.made', agentId: ADA, data: PLAN }]);
    expect(JSON.parse(rawData(db, 3)).actions[0]).toBeInstanceOf(Array);
    const all = [...full, { kind: 'plan.made', data: PLAN }];
    expect([...db.events.scan()].map((e) => JSON.stringify(e.data))).toEqual(all.map((e) => JSON.stringify(e.data)));
    db.close();
  });

  it('says which event and memory when a packed memory.created has lost its row', () => {
    const { db, id } = worldWithMemory();
    db.events.append([
      {
        gameMs: T,
        kind: 'memory.created',
        agentId: ADA,
        data: { id, kind: 'thought', description: 'Bo seems to like the cafe', importance: 5, evidence: [], by: 'Ada' },
      },
    ]);
    db.db.prepare('DELETE FROM memories WHERE id = ?').run(id);
    expect(() => [...db.events.scan()]).toThrow(`event 1 (memory.created) refers to memory ${id}, which is not in the world file`);
    db.close();
  });

  it('gives a running town back every event as it was logged, and keeps the log smaller', async () => {
    const config = loadConfig({}, { dataDir: tempDir(), logLevel: 'silent', startTime: '2026-02-13T05:00' });
    const town = await Town.open(config, {
      mind: new OfflineMind(),
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    const live: LoggedEvent[] = [];
    town.log.onEvents((events) => live.push(...events));
    const from = town.db.events.lastSeq();
    await town.loop.runLockstep(town.gameMs + 6 * GAME_MS_PER_HOUR, 20_000);
    const read = [...town.db.events.scan({ afterSeq: from })];
    expect(read.length).toBe(live.length);
    const shown = (e: LoggedEvent) => ({ seq: e.seq, gameMs: Math.round(e.gameMs), kind: e.kind, agentId: e.agentId, data: JSON.stringify(e.data) });
    expect(read.map(shown)).toEqual(live.map(shown));
    const rows = town.db.db
      .prepare("SELECT kind, count(*) AS n, sum(length(data)) AS bytes FROM events WHERE seq > ? AND kind IN ('memory.created', 'plan.made') GROUP BY kind")
      .all(from) as Array<{ kind: string; n: number; bytes: number }>;
    for (const kind of ['memory.created', 'plan.made']) {
      const kept = rows.find((r) => r.kind === kind)!;
      const asWritten = live.filter((e) => e.kind === kind).reduce((s, e) => s + JSON.stringify(e.data).length, 0);
      expect(kept.n, kind).toBeGreaterThan(5);
      expect(kept.bytes, kind).toBeLessThan(0.7 * asWritten);
    }
    await town.close();
  }, 120_000);
});
