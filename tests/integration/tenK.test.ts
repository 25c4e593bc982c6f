// A town of ten thousand (issue 24 §3). Always: the layout `npm run generate:town -- --agents 10000`
// draws, read back as the server reads a map (the reading that took minutes at this size before).
// With SLOW_TESTS=1 (`npm run test:slow`): the whole generation, written and checked, and a few game
// minutes of the morning in it on the offline mind.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawPopulation } from '../../scripts/towngen/population';
import { layoutTown } from '../../scripts/towngen/layout';
import { generateTown } from '../../scripts/generateTown';
import { parseTownMap } from '../../server/src/world/map';
import { GAME_MS_PER_MINUTE } from '../../server/src/protocol/time';
import { openOfflineTown, tempDir } from '../helpers';

const AGENTS = 10_000;

/** How many of a grid of `n` × `n` cells over the map hold at least one of `spots`. */
function cellsHolding(spots: ReadonlyArray<{ x: number; y: number }>, w: number, h: number, n: number): number {
  const cells = new Set(spots.map((s) => Math.floor((s.x * n) / w) * n + Math.floor((s.y * n) / h)));
  return cells.size;
}

describe('a town of ten thousand', () => {
  it('is laid out with homes and workplaces spread over a map that reads in one go', () => {
    const pop = drawPopulation(AGENTS, 1);
    const layout = layoutTown(pop, 1);
    const map = parseTownMap(layout.builder.toTmj(pop.townName), 'town10k.tmj');
    // Every household's home is on the map, with a bed, and every workplace is too.
    const sectors = new Map(map.places.sectors.map((s) => [s.name, s]));
    expect(new Set(layout.homes).size).toBe(pop.households.length);
    for (const home of layout.homes)
      expect(
        sectors.get(home)?.arenas.some((a) => a.objects.some((o) => o.name === 'bed')),
        home,
      ).toBe(true);
    const venues = pop.venues.filter((v) => v.type);
    expect(venues.length).toBeGreaterThan(300);
    for (const v of venues) expect(sectors.has(v.sector), v.sector).toBe(true);
    // Spread: over a 5 × 5 grid of the map, every cell has homes and all but a corner or two have workplaces;
    // a town that put its shops in one block, or its homes in one corner, fails this.
    const homeSpots = layout.homes.map((s) => layout.spots.get(s)!);
    const workSpots = venues.map((v) => layout.spots.get(v.sector)!).filter(Boolean);
    expect(cellsHolding(homeSpots, map.widthTiles, map.heightTiles, 5)).toBe(25);
    expect(cellsHolding(workSpots, map.widthTiles, map.heightTiles, 5)).toBeGreaterThanOrEqual(23);
    // About square, and not much bigger than the people need (a tenth of the town of 1,000's tiles per person).
    expect(map.widthTiles / map.heightTiles).toBeGreaterThan(0.8);
    expect(map.widthTiles / map.heightTiles).toBeLessThan(1.25);
    expect((map.widthTiles * map.heightTiles) / AGENTS).toBeLessThan(250);
  }, 300_000);

  it.runIf(process.env.SLOW_TESTS === '1')(
    'is generated, checked, and lives its morning on the offline mind',
    async () => {
      const out = tempDir('smalltown-tenk-');
      const town = generateTown({ agents: AGENTS, outDir: out, seed: 1 });
      expect(town.agents).toBe(AGENTS);
      const t = await openOfflineTown({ mapFile: path.join(out, 'town.tmj'), personasDir: path.join(out, 'personas'), startTime: '2026-02-13T07:00' });
      try {
        expect(t.sim.agents()).toHaveLength(AGENTS);
        const walked = new Set<string>();
        await t.loop.runLockstep(t.gameMs + 5 * GAME_MS_PER_MINUTE, 6_000, () => {
          for (const a of t.sim.agents()) if (a.movement) walked.add(a.spec.id);
        });
        const events = t.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000);
        expect(events.filter((e) => e.kind === 'agent.warning')).toEqual([]);
        // At 7:00 most are up: thousands plan their day and set off within five game minutes.
        expect(new Set(events.filter((e) => e.kind === 'plan.made').map((e) => e.agentId)).size).toBeGreaterThan(AGENTS / 4);
        expect(walked.size).toBeGreaterThan(AGENTS / 10);
      } finally {
        await t.close();
      }
    },
    1_800_000,
  );
});
