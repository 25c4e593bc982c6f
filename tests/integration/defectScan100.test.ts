// The defect scan (analysis/defects.ts) over a whole offline day of a generated 100-agent town, with
// gatherings and a secret whispered to a few residents so that news is retold, invitations made, accepted
// and declined: every utterance, memory, reflection, status, plan, relationship and interview answer is
// read, and none is a text a reader would stop at. The shipped town's day is scanned in
// cognitionDay.test.ts, a 30-agent town's in generatedTown.test.ts (both in `npm test`).
//
// Tagged slow: a 100-agent day takes about a minute of CPU, more on a loaded machine, so it runs with
// `npm run test:slow` (SLOW_TESTS=1), not in `npm test`.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTown } from '../../scripts/generateTown';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { scanWorldDefects, type DefectHit } from '../../server/src/analysis/defects';
import { interviewQuestions } from '../../server/src/analysis/believability';
import { pronounsOf } from '../../server/src/agent/grammar';
import { asAgentId } from '../../server/src/world/types';
import { tempDir } from '../helpers';

const AGENTS = 100;
/** Residents interviewed with the benchmark's questions: every tenth (all 100 would double the test's time). */
const INTERVIEW_EVERY = 10;

describe.runIf(process.env.SLOW_TESTS === '1')(`an offline day of a generated ${AGENTS}-agent town`, () => {
  let town: Town;
  let hits: DefectHit[];
  let counts: Record<string, number>;

  beforeAll(async () => {
    const out = tempDir('smalltown-gen100-');
    generateTown({ agents: AGENTS, outDir: out, seed: 4 });
    const config = loadConfig(
      {},
      { dataDir: tempDir(), logLevel: 'silent', mapFile: path.join(out, 'town.tmj'), personasDir: path.join(out, 'personas'), startTime: '2026-02-13T06:00' },
    );
    town = await Town.open(config, {
      mind: new OfflineMind(),
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    // Hosts with a workplace invite everyone they meet to a party there tonight; one keeps a secret.
    const hosts = [...town.personas.values()].filter((p) => p.workplace).slice(0, 4);
    for (const [k, p] of hosts.entries()) {
      const place = p.workplace!.split(': ')[0];
      const text =
        k === 3
          ? `${p.name} is running for mayor, and has told no one yet.`
          : `${p.name} is throwing a party at ${place} today at ${6 + k}pm, and wants to invite everyone ${pronounsOf(p, true).subject} meets.`;
      await town.commands.whisper(asAgentId(p.id), text, 'test');
    }
    await town.loop.runLockstep(town.gameMs + GAME_MS_PER_DAY, 30_000);
    const asked = [...town.personas.values()].filter((_, i) => i % INTERVIEW_EVERY === 0);
    for (const p of asked)
      for (const { question } of interviewQuestions(
        Object.values(p.relationships).length ? (town.personas.get(Object.keys(p.relationships)[0])?.name ?? p.name) : p.name,
      ))
        await town.commands.interview(asAgentId(p.id), question, 'test');
    town.log.flush();
    hits = scanWorldDefects(town.db);
    const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000);
    counts = {
      utterances: events.filter((e) => e.kind === 'conversation.utterance').length,
      memories: events.filter((e) => e.kind === 'memory.created').length,
      retold: events.filter((e) => e.kind === 'memory.created' && / \(heard from /.test(e.data.description)).length,
      invitations: events.filter((e) => e.kind === 'agent.decided' && e.data.decision === 'accept').length,
      interviews: events.filter((e) => e.kind === 'operator.action' && e.data.action === 'interview').length,
    };
    console.log(`${AGENTS}-agent day:`, JSON.stringify(counts));
  }, 600_000);

  afterAll(async () => {
    await town?.close();
  });

  it('talks, retells, invites and answers interviews (the scan has something to read)', () => {
    expect(counts.utterances).toBeGreaterThan(500);
    expect(counts.retold).toBeGreaterThan(50);
    expect(counts.invitations).toBeGreaterThan(0);
    expect(counts.interviews).toBe((AGENTS / INTERVIEW_EVERY) * 10);
    expect(town.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000).filter((e) => e.kind === 'agent.warning')).toEqual([]);
  });

  it('writes nothing a reader would stop at', () => {
    expect(hits).toEqual([]);
  });
});
