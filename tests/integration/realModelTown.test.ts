// A town on a real language model in this process (SmolLM2-135M-Instruct, GGUF, node-llama-cpp), no server
// and no double: three residents for two game hours. The clock moves, and memories and plans come from the model
// (llm_calls names it); at most a quarter of asks fall back. Its control: a file that is not GGUF is
// refused before any world file is written, with an error naming the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, checkSettingsOnDisk, ConfigError } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { startTown } from '../../server/src/app';
import { tempDir, threePersonas } from '../helpers';

import { testModel } from '../models';
import type { LlmMind } from '../../server/src/agent/LlmMind';

const model = testModel('smollm2', 'the real-model town test');
const HOURS = 2;

describe.skipIf(!model)('three residents on SmolLM2 for two game hours', () => {
  let town: Town;
  let startMs = 0;
  const fallbacks: string[] = [];

  beforeAll(async () => {
    // Arthur and Ruth share Bennett House: they wake together, so they can talk.
    const config = loadConfig(
      {},
      {
        dataDir: tempDir(),
        personasDir: threePersonas(['arthur', 'ruth', 'isabella']),
        startTime: '2026-02-13T06:00',
        logLevel: 'silent',
        llm: { modelFile: model!, sequences: 2, contextSize: 4096, timeoutMs: 300_000 },
      },
    );
    const minds = await buildMinds(config, createLogger('silent'));
    town = await Town.open(config, {
      embedder: minds.embedder,
      createMind: (hooks) => minds.createMind({ ...hooks, onFallback: (r) => (fallbacks.push(`${r.purpose}: ${r.reason}`), hooks.onFallback(r)) }),
      logger: createLogger('silent'),
    });
    startMs = town.gameMs;
    await town.loop.runLockstep(startMs + HOURS * 3_600_000, 30_000);
  }, 2_700_000);

  afterAll(async () => {
    await town?.close();
  });

  it('runs on the model in this process and says so', () => {
    expect(town.mind.label).toBe(`llm: ${path.basename(model!)} (embedded)`);
    expect(town.stack?.embedded?.().quantisation).toBe('Q4_1');
  });

  it('moves the clock two game hours', () => {
    expect(town.gameMs).toBeGreaterThanOrEqual(startMs + HOURS * 3_600_000);
  });

  it('makes memories and plans on the model, recorded in llm_calls', () => {
    const ok = (purpose: string) =>
      town.db.db
        .prepare(`SELECT count(*) FROM llm_calls WHERE purpose = ? AND outcome = 'ok' AND model = ?`)
        .pluck()
        .get(purpose, path.basename(model!)) as number;
    expect(ok('importance'), 'importance (memories)').toBeGreaterThan(0);
    expect(ok('plan'), 'plan').toBeGreaterThanOrEqual(3);
    // Conversations are the model's choice (appraise's talkTo, held to the people nearby or null): SmolLM2 started one
    // here in two game hours (a run on a quiet machine) and none before talkTo was narrowed; the count is reported,
    // not required, as the model's choice can change with the machine's arithmetic.
    console.log(`real-model town: ${ok('converse')} conversation turns, ${ok('importance')} importance and ${ok('plan')} plan calls`);
    expect(town.db.db.prepare('SELECT DISTINCT model FROM llm_calls').pluck().all()).toEqual([path.basename(model!)]);
  });

  // The issue's target is 5% (bench: llm.real.town.fallback_share, target ≤ 0.05): 0 of 26 asks fell back here once the
  // schemas were narrowed to the town and the day (3 of 19, all decompose, before). The test holds the town to a quarter,
  // so a model path that mostly falls back fails, and a model's bad day does not.
  it('falls back on at most a quarter of asks (the 5% target is the bench figure)', () => {
    const mind = town.mind as LlmMind;
    const asks = [...mind.tally.values()].reduce((n, t) => n + t.asks, 0);
    console.log(`real-model town: ${asks} asks, ${fallbacks.length} fell back`, Object.fromEntries(mind.tally));
    expect(asks).toBeGreaterThan(0);
    expect(fallbacks.length / asks, fallbacks.join('\n')).toBeLessThanOrEqual(0.25);
  });
});

describe('the control: a model file that is not GGUF', () => {
  it('is refused before anything is written, naming the file', async () => {
    const dir = tempDir();
    const notGguf = path.join(dir, 'model.gguf');
    fs.writeFileSync(notGguf, 'this is a text file, not a model\n');
    const dataDir = path.join(dir, 'data');
    const config = loadConfig({ LLM_MODEL_FILE: notGguf }, { dataDir, logLevel: 'silent' });
    expect(() => checkSettingsOnDisk(config)).toThrow(ConfigError);
    expect(() => checkSettingsOnDisk(config)).toThrow(`LLM_MODEL_FILE: '${notGguf}' is not a GGUF model file`);
    await expect(startTown({ dataDir, port: 0, logLevel: 'silent' }, { LLM_MODEL_FILE: notGguf })).rejects.toThrow(/is not a GGUF model file/);
    await expect(startTown({ dataDir, port: 0, logLevel: 'silent' }, { LLM_MODEL_FILE: path.join(dir, 'missing.gguf') })).rejects.toThrow(
      /missing\.gguf' does not exist/,
    );
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
