// Kill -9 at random moments (seeded), a few times, during an offline run and an LLM run: the server is
// `npm start`'s entry point in a process of its own; the LLM is the in-process OpenAI-compatible stub,
// reached over real HTTP. Nothing committed may be lost (what another process read from the file before
// each kill is there after the restart, unchanged), the log stays gap-free, the file's integrity check
// is clean, and the town goes on. The benchmark (`npm run bench -- chaos`) does it 20 times and times
// the resumes; here only correctness is asserted.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { killAndResume, OutsideReader, type KillRunResult } from '../chaos/killAndResume';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { MindContext } from '../../server/src/agent/mind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { subsetPersonas, tempDir } from '../helpers';

/** A quarter of the kills land in a start-up or resume, the others in the first 1.5 s of serving; the last start lives 1 s. */
const MOMENTS = { duringStart: 0.25, startMs: [300, 2000] as [number, number], servingMs: [200, 1500] as [number, number] };

function expectNothingLost(run: KillRunResult): void {
  const summary = JSON.stringify({ cycles: run.cycles, checks: run.checks });
  expect(run.lostRows, summary).toEqual([]);
  expect(run.checks.length, summary).toBeGreaterThan(0);
  for (const check of run.checks) {
    expect(check.integrity).toBe('ok');
    expect(check.gapFree).toBe(true);
    expect(check.dangling).toBe(0);
    expect(check.rolledBackGameMs).toBe(0);
    // One history: never back before a time a viewer was shown, and the log's game time never goes back.
    expect(check.behindShownGameMs, summary).toBe(0);
    expect(check.logWentBackGameMs, summary).toBe(0);
    expect(check.worldStarts).toBe(1);
    expect(check.seedsTwice).toBe(0);
  }
  // The last process saved and stopped cleanly, after living on from where the kills left the town.
  expect(run.exitCode, run.finalOutput).toBe(0);
  expect(run.eventsAfterLastResume, run.finalOutput).toBeGreaterThan(1);
  expect(run.seenMemories).toBeGreaterThan(0);
}

describe('kill -9 at random moments', () => {
  let stub: OpenAIStub | undefined;
  afterAll(async () => stub?.close());

  it('on the offline mind: every committed memory and event survives, the log stays gap-free, the file intact', async () => {
    const run = await killAndResume({
      kills: 3,
      seed: 12,
      dataDir: tempDir(),
      // Ten game minutes a real second from 08:00: walks, talk and memories all the time.
      env: { START_TIME: '2026-02-13T08:00', CLOCK_RATE: '600' },
      moments: MOMENTS,
      lastRunMs: 1000,
    });
    expectNothingLost(run);
    expect(run.resumeMs.length).toBeGreaterThan(0);
  }, 90_000);

  it('at night, when nothing is logged for game minutes: the resumed clock is never before the clock shown, nor the log\u2019s', async () => {
    // From 01:00 everyone sleeps: only the clock moves (ten game minutes a real second), and nothing is logged.
    const run = await killAndResume({
      kills: 3,
      seed: 5,
      dataDir: tempDir(),
      env: { START_TIME: '2026-02-13T01:00', CLOCK_RATE: '600' },
      moments: { duringStart: 0, startMs: [0, 0], servingMs: [800, 1500] },
      lastRunMs: 800,
      lastRunEvents: 0,
    });
    const summary = JSON.stringify({ cycles: run.cycles, checks: run.checks });
    expect(run.lostRows, summary).toEqual([]);
    expect(run.cycles.every((c) => c.shownGameMs !== null)).toBe(true);
    for (const check of run.checks) {
      expect(check.integrity).toBe('ok');
      expect(check.gapFree).toBe(true);
      expect(check.behindShownGameMs, summary).toBe(0);
      expect(check.logWentBackGameMs, summary).toBe(0);
    }
    expect(run.exitCode, run.finalOutput).toBe(0);
  }, 90_000);

  it('on the LLM mind over HTTP, including a kill while a new world seeds its residents\u2019 memories', async () => {
    // Slow enough that the kill lands while the residents are seeded (each seeding is one call).
    stub = installTownResponders(await new OpenAIStub({ latencyMs: 300 }).start());
    const seeding = () => (stub!.stats.bySchema.importance_reply ?? 0) >= 2;
    const run = await killAndResume({
      kills: 3,
      seed: 7,
      dataDir: tempDir(),
      env: {
        START_TIME: '2026-02-13T08:00',
        CLOCK_RATE: '600',
        PERSONAS_DIR: subsetPersonas(['isabella', 'kenji', 'ruth', 'arthur']),
        OPENAI_BASE_URL: stub.url,
        OPENAI_API_KEY: 'chaos',
        LLM_MODEL: 'stub-model',
      },
      killFirstWhen: seeding,
      moments: MOMENTS,
      lastRunMs: 1000,
    });
    expectNothingLost(run);
    // The first kill landed in the new world's first start: nothing of the run had been logged yet (the server may
    // already serve, as it starts a new world in the background); the restart seeded the rest and started it once (expectNothingLost).
    expect(run.cycles[0]!.seenSeq).toBe(0);
    expect(run.finalOutput).toMatch(/llm: stub-model/);
  }, 90_000);
});

/** The offline mind, failing its importance call for the third resident: where a kill -9 would leave the first start. */
class MindThatDiesSeeding extends OfflineMind {
  private seeded = 0;
  override async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    if (++this.seeded === 3) throw new Error('the process died here');
    return super.rateImportance(ctx, descriptions);
  }
}

describe('a first start cut short before the world was first saved', () => {
  it('goes on from the residents it seeded on the next start, each resident seeded once and the world started once', async () => {
    const dataDir = tempDir();
    const personasDir = subsetPersonas(['isabella', 'kenji', 'ruth', 'arthur']);
    const config = loadConfig({}, { dataDir, personasDir, startTime: '2026-02-13T08:00', logLevel: 'silent' });
    const parts = { embedder: loadOfflineEmbedder(), logger: createLogger('silent'), runtimeSettings: OFFLINE_RUNTIME_SETTINGS };
    await expect(Town.open(config, { ...parts, mind: new MindThatDiesSeeding() })).rejects.toThrow(/died here/);

    const warnings: string[] = [];
    const town = await Town.open(config, {
      ...parts,
      mind: new OfflineMind(),
      logger: { ...createLogger('silent'), warn: (m: string) => void warnings.push(m) },
    });
    expect(town.opening.kind).toBe('new');
    // The two residents rated before the failure were written, with their events; the other two are seeded now.
    expect(warnings.join('\n')).toMatch(/first start stopped before the world was first saved, with 2 of 4 residents seeded; seeding the rest/);
    const seeds = town.db.db.prepare('SELECT agent_id AS agent, description, count(*) AS n FROM memories GROUP BY agent_id, description HAVING n > 1').all();
    expect(seeds).toEqual([]);
    expect(town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'run.started'").pluck().get()).toBe(1);
    for (const id of ['isabella', 'kenji', 'ruth', 'arthur']) expect(town.db.memories.count(id as never), id).toBeGreaterThan(0);
    await town.close();
  });

  it('never clears a file that holds a running town\u2019s history, even with no snapshot: it refuses it, saying why', async () => {
    const config = loadConfig(
      {},
      { dataDir: tempDir(), personasDir: subsetPersonas(['isabella', 'kenji']), startTime: '2026-02-13T08:00', logLevel: 'silent' },
    );
    const parts = { embedder: loadOfflineEmbedder(), logger: createLogger('silent'), runtimeSettings: OFFLINE_RUNTIME_SETTINGS };
    const town = await Town.open(config, { ...parts, mind: new OfflineMind() });
    await town.loop.runLockstep(town.gameMs + 30 * 60_000);
    const events = town.db.events.lastSeq();
    town.db.db.prepare('DELETE FROM snapshots').run();
    town.log.close();
    town.db.close();
    await expect(Town.open(config, { ...parts, mind: new OfflineMind() })).rejects.toThrow(
      /holds \d+ events of a running town but no snapshot to resume them from; move it away/,
    );
    const again = new Database(path.join(config.dataDir, 'smalltown.sqlite'), { readonly: true });
    expect(again.prepare('SELECT count(*) FROM events').pluck().get()).toBe(events);
    again.close();
  });
});

describe('the outside reader the kill test trusts', () => {
  it('notices a row gone, an event rewritten, a gap in the log and a world started twice', async () => {
    const dataDir = tempDir();
    const config = loadConfig(
      {},
      { dataDir, world: 'chaos', personasDir: subsetPersonas(['isabella', 'kenji']), startTime: '2026-02-13T08:00', logLevel: 'silent' },
    );
    const town = await Town.open(config, {
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      mind: new OfflineMind(),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    await town.loop.runLockstep(town.gameMs + 30 * 60_000);
    const reader = new OutsideReader(path.join(dataDir, 'chaos.sqlite'));
    reader.poll();
    expect(reader.check()).toMatchObject({ lost: [], gapFree: true, integrity: 'ok', worldStarts: 1, seedsTwice: 0, dangling: 0 });
    const db = town.db.db;
    const memory = db.prepare('SELECT max(id) FROM memories').pluck().get() as number;
    db.prepare('DELETE FROM memories WHERE id = ?').run(memory);
    db.prepare("UPDATE events SET data = '{}' WHERE seq = 3").run();
    db.prepare('DELETE FROM events WHERE seq = 5').run();
    db.prepare("INSERT INTO events (seq, game_ms, kind, agent_id, data) VALUES (100000, 0, 'run.started', NULL, '{}')").run();
    const check = reader.check();
    expect(check.lost).toEqual(expect.arrayContaining(['event #3', 'event #5', `memory ${memory}`]));
    expect(check).toMatchObject({ gapFree: false, worldStarts: 2 });
    reader.close();
    await town.close();
  });
});
