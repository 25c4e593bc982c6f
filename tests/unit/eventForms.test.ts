// How events are kept in the world file (store/eventForms.ts): `memory.created` as a reference to its
// memory row and `plan.made` with its actions as arrays, read back as exactly what was written; payloads
// the packer cannot reproduce, and files written before packing (full payloads), read as they are.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { EVENT_KINDS, type EventInput, type LoggedEvent } from '../../server/src/protocol/events';
import { packEvent, packEventByReadBack, unpackEvent, type MemoryRowForm, type MemoryRowLookup } from '../../server/src/store/eventForms';
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

// packEvent decides without reading back (the log packs in the tick); the reference packs only what reads back
// as written. Over payloads of every kind (plans and memories near the packer's shapes: keys missing, added,
// reordered, values JSON drops or rewrites, rows that differ), both must keep the same text, and unpacking it
// must give back exactly the JSON written.
describe('packing without reading back', () => {
  const text = fc.oneof(fc.string(), fc.constantFrom('waking up', '⏰', 'Ada House: bedroom: bed', '\ud800', ''));
  // Values as a payload may hold them, JSON's awkward ones included.
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.oneof(fc.integer({ min: 0, max: 1440 }), text) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, null, NaN, -0, 1e21, () => 1, Symbol('s'), [1, undefined], { a: undefined }),
    },
  );
  /** An object with these keys, perhaps one missing, one added, two swapped, or a value replaced by an awkward one. */
  const near = (keys: readonly string[], exact: fc.Arbitrary<unknown>) =>
    fc.tuple(fc.array(exact, { minLength: keys.length, maxLength: keys.length }), fc.nat(9), fc.nat(keys.length - 1), value).map(([values, how, at, odd]) => {
      const entries: Array<[string, unknown]> = keys.map((k, i) => [k, values[i]]);
      if (how === 1) entries.splice(at, 1);
      if (how === 2) entries.push(['note', odd]);
      if (how === 3 && at > 0) [entries[at - 1], entries[at]] = [entries[at], entries[at - 1]];
      if (how === 4) entries[at][1] = odd;
      return Object.fromEntries(entries) as Record<string, unknown>;
    });
  const action = near(['startMinute', 'durationMinutes', 'description', 'emoji', 'address'], fc.oneof(fc.integer({ min: 0, max: 1440 }), text));
  const block = near(['startMinute', 'durationMinutes', 'activity'], fc.oneof(fc.integer({ min: 0, max: 1440 }), text));
  const plan = fc.oneof(
    fc.record({
      day: fc.integer(),
      broadStrokes: fc.array(text, { maxLength: 3 }),
      hourBlocks: fc.array(block, { maxLength: 4 }),
      actions: fc.array(action, { maxLength: 6 }),
    }),
    fc.record({ day: fc.integer(), reason: text, fromMinute: fc.integer(), actions: fc.array(action, { maxLength: 6 }) }),
    fc.record({ day: fc.integer(), hourBlocks: value, actions: fc.oneof(value, fc.array(value, { maxLength: 2 })) }),
  );
  const ROW: MemoryRowForm = { agentId: 'ada', kind: 'thought', description: 'Bo seems to like the cafe', importance: 5, evidence: '[3,4]' };
  // A memory's event as its writer logs it, with its row or a row that differs in one field, or no row.
  const memory = fc
    .tuple(near(['id', 'kind', 'description', 'importance', 'evidence', 'by'], fc.constant(undefined)), fc.nat(7), fc.nat(7), value)
    .map(([shape, rowHow, dataHow, odd]) => {
      const exact: Record<string, unknown> = { id: 7, kind: ROW.kind, description: ROW.description, importance: ROW.importance, evidence: [3, 4], by: 'Ada' };
      const data = Object.fromEntries(Object.keys(shape).map((k) => [k, k in exact ? exact[k] : odd]));
      if (dataHow < 5 && dataHow in Object.keys(data)) data[Object.keys(data)[dataHow]] = odd;
      const fields = ['agentId', 'kind', 'description', 'importance', 'evidence'] as const;
      const row: MemoryRowForm | undefined =
        rowHow === 6
          ? undefined
          : rowHow === 7
            ? { ...ROW, evidence: '[ 3, 4 ]' }
            : rowHow < 5
              ? { ...ROW, [fields[rowHow]]: rowHow === 3 ? 6 : rowHow === 4 ? '[3]' : 'x' }
              : ROW;
      return { data, row };
    });
  const other = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(value, fc.jsonValue()), { maxKeys: 5 });
  const event = fc.oneof(
    plan.map((data) => ({ kind: 'plan.made', data: data as unknown, row: undefined as MemoryRowForm | undefined })),
    memory.map(({ data, row }) => ({ kind: 'memory.created', data: data as unknown, row })),
    fc
      .tuple(
        fc.constantFrom(...EVENT_KINDS),
        fc.oneof(
          other,
          plan,
          memory.map((m) => m.data),
          fc.jsonValue(),
        ),
      )
      .map(([kind, data]) => ({ kind, data: data as unknown, row: ROW })),
  );
  const lookup =
    (row: MemoryRowForm | undefined): MemoryRowLookup =>
    (id) =>
      id === 7 ? row : undefined;

  const agrees = (pack: typeof packEvent) =>
    fc.property(event, ({ kind, data, row }) => {
      const kept = pack(kind, 'ada', data, lookup(row));
      expect(kept).toBe(packEventByReadBack(kind, 'ada', data, lookup(row)));
      // A memory's event written without a description but with a numeric id, and a plan whose first action is an
      // array, are what the packed forms look like: the file's format cannot tell them apart (no writer logs one),
      // so only that their text is the reference's is checked.
      const d = JSON.parse(JSON.stringify(data ?? null)) as Record<string, unknown> | null;
      const object = d !== null && typeof d === 'object' && !Array.isArray(d);
      if (object && kind === 'memory.created' && !('description' in d) && typeof d.id === 'number') return;
      if (object && kind === 'plan.made' && Array.isArray(d.actions) && Array.isArray(d.actions[0])) return;
      expect(JSON.stringify(unpackEvent(kind, JSON.parse(kept), lookup(row)))).toBe(JSON.stringify(data ?? null));
    });

  it('keeps what the read-back reference keeps, for every kind, and reads back exactly what was written', () => {
    fc.assert(agrees(packEvent), { numRuns: 3000, seed: 24 });
    // Both forms occur, so the agreement is not all payloads kept as written.
    const packedKinds = new Set<string>();
    const keptKinds = new Set<string>();
    fc.sample(event, { numRuns: 2000, seed: 24 }).forEach(({ kind, data, row }) =>
      (packEvent(kind, 'ada', data, lookup(row)) === JSON.stringify(data ?? null) ? keptKinds : packedKinds).add(kind),
    );
    expect([...packedKinds].sort()).toEqual(['memory.created', 'plan.made']);
    expect(keptKinds).toContain('memory.created');
    expect(keptKinds).toContain('plan.made');
  });

  it('keeps as written a payload holding a value with its own toJSON (which the reference would compare by its text)', () => {
    const dated = { ...PLAN, actions: [{ ...PLAN.actions[0], startMinute: new Date(0) }] };
    expect(packEvent('plan.made', 'ada', dated, lookup(undefined))).toBe(JSON.stringify(dated));
    const note = {
      id: 7,
      kind: 'thought',
      description: 'Bo seems to like the cafe',
      importance: 5,
      evidence: [3, 4],
      by: 'Ada',
      note: { toJSON: () => undefined },
    };
    expect(packEvent('memory.created', 'ada', note, lookup(ROW))).toBe(JSON.stringify(note));
    expect(packEvent('memory.created', 'ada', { ...note, note: undefined }, lookup(ROW))).toBe('{"id":7,"by":"Ada"}');
  });

  it('catches a packer that trusts the shapes (the control)', () => {
    // Packs every plan's rows and every memory with a row, unchecked: what the check exists to stop.
    const trusting: typeof packEvent = (kind, agentId, data, memoryRow) => {
      const d = data as Record<string, unknown> | null;
      if (kind === 'memory.created' && d && typeof d.id === 'number' && memoryRow(d.id)) return JSON.stringify({ id: d.id, by: d.by });
      if (kind === 'plan.made' && d && Array.isArray(d.actions) && d.actions.length > 0 && d.actions.every((a) => a && typeof a === 'object')) {
        const rows = (list: unknown, keys: string[]) => (Array.isArray(list) ? list.map((a: Record<string, unknown>) => keys.map((k) => a[k])) : list);
        return JSON.stringify({ ...d, actions: rows(d.actions, ['startMinute', 'durationMinutes', 'description', 'emoji', 'address']) });
      }
      return JSON.stringify(data ?? null);
    };
    expect(fc.check(agrees(trusting), { numRuns: 3000, seed: 24 }).failed).toBe(true);
  });
});
