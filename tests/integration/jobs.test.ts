// The scheduled jobs, run directly: an online backup that opens as a world, the idle check, and a
// failing job that is logged without stopping the town.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDir, backupWorld, startJobs } from '../../server/src/jobs/jobs';
import { ManualClock } from '../../server/src/core/wallClock';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { loadConfig, ConfigError, ENV_NAMES } from '../../server/src/config';
import { startTestTown } from '../helpers';

describe('scheduled jobs', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  const wall = new ManualClock();
  beforeAll(async () => {
    town = await startTestTown({ rate: 600, startTime: '2026-02-13T08:00', backupKeep: 2, idlePauseMinutes: 10 }, { wallClock: wall });
  });
  afterAll(async () => town?.close());

  it('backs the world up while the town runs, keeps the last N, and a backup opens as a world', async () => {
    const files: string[] = [];
    for (let i = 0; i < 3; i++) {
      files.push(await backupWorld(town.config, town.town, Date.UTC(2026, 10, 22, 10, 0, i)));
      await new Promise((r) => setTimeout(r, 100));
    }
    const kept = fs.readdirSync(backupDir(town.config)).sort();
    expect(kept).toEqual(files.slice(1).map((f) => path.basename(f)));
    const copy = openWorldDb(files[2], { model: town.town.embedder.model, dimension: town.town.embedder.dimension });
    expect(copy.memories.count()).toBeGreaterThan(0);
    expect(copy.snapshots.latest()).toBeDefined();
    copy.close();
  });

  it('pauses a town nobody watches, and not one that is watched or has the check turned off', async () => {
    const t = town.town;
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const jobs = startJobs({ ...town.config, backupCron: 'off', idleCheckCron: 'off', housekeepingCron: 'off' }, t, quiet);
    wall.advance(9 * 60_000);
    await jobs.run('idle-check');
    expect(t.holds.has('idle')).toBe(false);
    wall.advance(2 * 60_000);
    await jobs.run('idle-check');
    expect(t.holds.has('idle')).toBe(true);
    // Someone comes to watch: the town wakes.
    t.holds.watchers(1, wall.now());
    expect(t.holds.has('idle')).toBe(false);
    t.holds.watchers(0, wall.now());
    wall.advance(11 * 60_000);
    const off = startJobs({ ...town.config, idlePauseMinutes: 0, backupCron: 'off', idleCheckCron: 'off', housekeepingCron: 'off' }, t, quiet);
    await off.run('idle-check');
    expect(t.holds.has('idle')).toBe(false);
    jobs.stop();
    off.stop();
  });

  it('logs a failing job and carries on', async () => {
    const lines: string[] = [];
    // A data folder that is really a file: the backup cannot be written.
    const file = path.join(town.dataDir, 'not-a-folder');
    fs.writeFileSync(file, '');
    const broken = { ...town.config, dataDir: file };
    const jobs = startJobs({ ...broken, backupCron: 'off', idleCheckCron: 'off', housekeepingCron: 'off' }, town.town, {
      debug: () => undefined,
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    });
    await jobs.run('backup');
    await jobs.run('housekeeping');
    jobs.stop();
    expect(lines[0]).toMatch(/^job backup failed: /);
    expect(lines[1]).toMatch(/^job housekeeping: wal checkpointed/);
    expect((await fetch(`${town.url}/healthz`)).status).toBe(200);
  });

  it('refuses a bad cron expression by name', () => {
    expect(() =>
      startJobs({ ...town.config, backupCron: 'every hour', idleCheckCron: 'off', housekeepingCron: 'off' }, town.town, {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      }),
    ).toThrow(/bad cron expression for job backup: 'every hour'/);
  });
});

describe('settings', () => {
  it('name the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: /);
    expect(() => loadConfig({ START_TIME: 'tomorrow' })).toThrow(/START_TIME: expected YYYY-MM-DDTHH:MM/);
    expect(() => loadConfig({ LLM_PRICES: '{oops' })).toThrow(/LLM_PRICES: not valid JSON/);
    expect(() => loadConfig({ CLOCK_POLICY: 'sometimes' })).toThrow(/CLOCK_POLICY/);
  });

  it('read every documented variable', () => {
    const c = loadConfig({
      PORT: '3000',
      DATA_DIR: '/tmp/x',
      WORLD: 'w2',
      CLOCK_RATE: '120',
      OPENAI_BASE_URL: 'http://localhost:8000/v1',
      LLM_MODEL: 'm',
      LLM_MODEL_PLAN: 'big',
      LLM_CONCURRENCY: '16',
      LLM_BUDGET_TOKENS: '1000000',
      IDLE_PAUSE_MINUTES: '0',
    });
    expect(c).toMatchObject({
      port: 3000,
      dataDir: '/tmp/x',
      world: 'w2',
      rate: 120,
      idlePauseMinutes: 0,
      llm: { baseURL: 'http://localhost:8000/v1', model: 'm', models: { plan: 'big' }, concurrency: 16, budgetTokens: 1_000_000 },
    });
    const readme = fs.readFileSync('README.md', 'utf8');
    for (const name of [
      'PORT',
      'DATA_DIR',
      'WORLD',
      'MAP_FILE',
      'PERSONAS_DIR',
      'SEED',
      'START_TIME',
      'CLOCK_RATE',
      'TICK_HZ',
      'CLOCK_POLICY',
      'OPERATOR_TOKEN',
      'IDLE_PAUSE_MINUTES',
      'IDLE_CHECK_CRON',
      'SNAPSHOT_EVERY_GAME_MINUTES',
      'BACKUP_CRON',
      'BACKUP_KEEP',
      'HOUSEKEEPING_CRON',
      'PRUNE_AFTER_DAYS',
      'LOG_LEVEL',
      'OPENAI_BASE_URL',
      'OPENAI_API_KEY',
      'LLM_MODEL',
      'LLM_RESPONSE_FORMAT',
      'LLM_CONCURRENCY',
      'LLM_RPM',
      'LLM_TPM',
      'LLM_TIMEOUT_MS',
      'LLM_MAX_RETRIES',
      'LLM_BUDGET_TOKENS',
      'LLM_BUDGET_USD',
      'LLM_PRICES',
      'EMBEDDING_MODEL',
      'EMBEDDING_DIMENSION',
    ])
      expect(readme, name).toContain(`\`${name}\``);
    // Every variable config.ts reads has a row in the table.
    for (const name of Object.values(ENV_NAMES)) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});
