// Paths searched ahead of the steps that start their walks (sim/walksAhead.ts, DistanceFields.searchAhead): a
// served town searches them between ticks. A town that does so before every step must live exactly the morning
// of one that does not, event for event, while its steps take most of their paths from what was searched ahead;
// a wrong path waiting ahead (the control) must show in the events.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import type { Town } from '../../server/src/town/Town';
import type { Input } from '../../server/src/sim/types';
import { generateTown } from '../../scripts/generateTown';
import { openOfflineTown, tempDir } from '../helpers';

type Ahead = 'none' | 'exact' | 'poisoned';

const dir = tempDir('smalltown-ahead-');
generateTown({ agents: 60, outDir: dir, seed: 5 });

async function morning(ahead: Ahead): Promise<{ town: Town; events: unknown[]; moves: number }> {
  const town = await openOfflineTown({ mapFile: path.join(dir, 'town.tmj'), personasDir: path.join(dir, 'personas'), startTime: '2026-02-13T06:00' });
  const { sim } = town;
  const fields = sim.world.fields;
  const poisonedPaths = new WeakSet<number[]>();
  if (ahead !== 'none') {
    // Before each step, as the served loop does between ticks: the walks of the plans about to be applied, and of the
    // next actions within the loop's horizon.
    const step = sim.step.bind(sim);
    sim.step = (gameMs: number, inputs: readonly Input[] = []) => {
      for (const w of [...sim.walksOfPlans(inputs, gameMs), ...sim.walksOfNextActions(90_000, 0, 1)]) fields.searchAhead(w.from, w.to);
      if (ahead === 'poisoned') {
        // The control: each path waiting ahead stops a tile short (a walkable tile, but not the destination).
        const waiting = (fields as unknown as { ahead: Map<number, number[] | null> }).ahead;
        for (const [key, p] of waiting)
          if (p && p.length > 2 && !poisonedPaths.has(p)) (waiting.set(key, p.slice(0, -1)), poisonedPaths.add(waiting.get(key)!));
      }
      return step(gameMs, inputs);
    };
  }
  const events: unknown[] = [];
  let moves = 0;
  const record = (r: { events: Array<{ gameMs: number; kind: string; agentId: string | null; data: unknown }> }) => {
    events.push(...r.events.map((e) => [e.gameMs, e.kind, e.agentId, e.data]));
    moves += r.events.filter((e) => e.kind === 'agent.move' && (e.data as { path: number[] }).path.length > 1).length;
  };
  await town.loop.runLockstep(town.gameMs + 2.5 * GAME_MS_PER_HOUR, 10_000, record);
  return { town, events, moves };
}

describe('paths searched ahead', () => {
  it('live the same morning as paths searched in the step, and give the steps most of their paths', async () => {
    const reference = await morning('none');
    const ahead = await morning('exact');
    const poisoned = await morning('poisoned');
    try {
      expect(reference.moves).toBeGreaterThan(100);
      expect(ahead.events).toEqual(reference.events);
      expect(ahead.town.sim.getState()).toEqual(reference.town.sim.getState());
      const { aheadSearches, aheadTaken } = ahead.town.sim.world.fields.stats;
      expect(reference.town.sim.world.fields.stats.aheadTaken).toBe(0);
      // Most walks that needed a search took one made ahead, and most searches ahead were taken.
      expect(aheadTaken).toBeGreaterThan(0.7 * ahead.moves);
      expect(aheadTaken).toBeGreaterThan(0.9 * aheadSearches);
      // The control: paths waiting ahead are what the walks use, so a wrong one shows.
      expect(poisoned.events).not.toEqual(reference.events);
    } finally {
      await Promise.all([reference, ahead, poisoned].map((r) => r.town.close()));
    }
  }, 180_000);
});
