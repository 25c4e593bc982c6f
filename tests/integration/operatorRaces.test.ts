// Operator commands sent on top of one another, as the message fuzzer sends them: a command refused
// is not logged as done, and one persona added twice at once joins (and is seeded) once.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import type { AgentId } from '../../server/src/protocol/ids';
import { subsetPersonas, tempDir } from '../helpers';

describe('operator commands on top of one another', () => {
  let town: Town;
  const personasDir = subsetPersonas(['isabella', 'kenji', 'ruth']);
  const actions = (action: string) =>
    town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'operator.action' AND json_extract(data, '$.action') = ?").pluck().get(action) as number;

  beforeAll(async () => {
    const config = loadConfig({}, { dataDir: tempDir(), personasDir, startTime: '2026-02-13T09:00', logLevel: 'silent' });
    town = await Town.open(config, {
      mind: new OfflineMind(),
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    fs.copyFileSync(path.join('personas', 'yumi.yaml'), path.join(personasDir, 'yumi.yaml'));
  });
  afterAll(async () => town?.close());

  it('logs a step only when it runs: a second step while one runs is refused and not logged', async () => {
    const start = town.gameMs;
    const first = town.commands.step(30, 'op');
    await expect(town.commands.step(30, 'op')).rejects.toThrow(/already running a lockstep run/);
    await first;
    expect(town.gameMs).toBe(start + 30 * 60_000);
    expect(actions('step')).toBe(1);
  });

  it('adds a persona asked for twice at once only once: one seeding, one add, the second refused', async () => {
    const results = await Promise.allSettled([town.commands.addAgent('yumi', 'op'), town.commands.addAgent('yumi', 'op')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/'yumi' is already being added/);
    await town.loop.runLockstep(town.gameMs + 60_000);
    expect(town.sim.agent('yumi')).toBeDefined();
    expect(actions('add agent')).toBe(1);
    const twice = town.db.db
      .prepare("SELECT count(*) FROM (SELECT description FROM memories WHERE agent_id = 'yumi' GROUP BY description HAVING count(*) > 1)")
      .pluck()
      .get();
    expect(twice).toBe(0);
    expect(town.db.memories.count('yumi' as AgentId)).toBeGreaterThan(0);
  });
});
