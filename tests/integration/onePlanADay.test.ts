// Issue 45: twice-made plans. At a served world's start some agents got two `plan.made` events for one day
// (Arthur, Isabella, Omar: seq 70/73, 71/89, 72/101) and restarted their walks: the routine the loop gives
// a resident whose mind is late (its quick plan) and then the mind's own plan, each logged as the day's
// plan. Now a day has one plan; the mind's own, when it differs, is logged as a re-plan.
import { describe, expect, it } from 'vitest';
import { startTown } from '../../server/src/app';
import { tempDir, waitFor } from '../helpers';
import { describeEvent } from '../../server/src/protocol/feedText';

describe('one plan per agent per day', () => {
  it('a served world logs one plan a day per resident; a later one is a re-plan', async () => {
    const server = await startTown({
      port: 0,
      host: '127.0.0.1',
      dataDir: tempDir(),
      idlePauseMinutes: 0,
      backupCron: 'off',
      idleCheckCron: 'off',
      housekeepingCron: 'off',
      logLevel: 'warn',
      rate: 600,
    });
    try {
      const town = server.town;
      await town.whenStarted();
      // Everyone's first plan (the town starts at 06:00, as people wake).
      await waitFor(
        'every resident planned',
        () => {
          const planned = new Set([...town.db.events.scan({ kinds: ['plan.made'] })].map((e) => e.agentId));
          return town.sim.agents().every((a) => planned.has(a.spec.id));
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 2000));
      const days = new Map<string, number[]>();
      const lines: string[] = [];
      for (const e of town.db.events.scan({ kinds: ['plan.made'] })) {
        if (e.kind !== 'plan.made') continue;
        if (!('reason' in e.data)) {
          const key = `${e.agentId}@${e.data.day}`;
          days.set(key, [...(days.get(key) ?? []), e.seq]);
        }
        lines.push(describeEvent(e, (id) => id) ?? '');
      }
      const twice = [...days].filter(([, seqs]) => seqs.length > 1).map(([key, seqs]) => `${key}: ${seqs.join('/')}`);
      expect(twice).toEqual([]);
      expect(days.size).toBe(town.sim.agents().length);
      expect(lines.filter((l) => l.endsWith('planned the day'))).toHaveLength(town.sim.agents().length);
    } finally {
      await server.close();
    }
  }, 60_000);
});
