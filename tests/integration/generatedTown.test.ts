// `npm run generate:town`: a town of any size that loads as the server loads it, lives a day on the
// offline mind, and comes out the same for the same seed.
import { scanWorldDefects } from '../../server/src/analysis/defects';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { generateTown } from '../../scripts/generateTown';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonaFolder } from '../../server/src/world/persona';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { openOfflineTown, tempDir } from '../helpers';

/** Every file under a folder, by relative path, with its bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('a generated town', () => {
  it('loads through the map and persona loaders: homes with a bed each, jobs, schools and relationships within them', () => {
    const out = tempDir('smalltown-gen-');
    const town = generateTown({ agents: 30, outDir: out, seed: 4 });
    expect(town.agents).toBe(30);
    const map = loadTownMap(path.join(out, 'town.tmj'));
    const { personas, warnings } = loadPersonaFolder(path.join(out, 'personas'), map);
    expect(warnings).toEqual([]);
    expect(personas).toHaveLength(30);
    expect(new Set(personas.map((p) => p.name)).size).toBe(30);
    // More homes, workplaces and public places than the shipped town's, on the shipped town's tileset.
    const sectors = map.places.sectors.map((s) => s.name);
    expect(sectors.filter((s) => /^\d+ /.test(s)).length).toBe(town.homes);
    expect(sectors).toContain('Town Hall');
    expect(sectors.some((s) => s.endsWith(' Park'))).toBe(true);
    expect(fs.readFileSync(path.join(out, 'tilesets', 'town.png'))).toEqual(fs.readFileSync('maps/tilesets/town.png'));
    for (const p of personas) {
      const bed = `${p.home}: ${p.bedroom ?? 'bedroom'}: ${p.bed ?? 'bed'}`;
      expect(map.objectsByAddress.has(bed), bed).toBe(true);
      if (p.workplace) expect(map.arenasByAddress.has(p.workplace), p.workplace).toBe(true);
      // Relationships are with people of the same home or workplace (or class), both ways.
      for (const other of Object.keys(p.relationships)) {
        const o = personas.find((q) => q.id === other)!;
        expect(o, `${p.id} knows ${other}`).toBeDefined();
        expect(
          o.home === p.home || p.relationships[other].includes(' works with ') || p.relationships[other].includes(' class at '),
          `${p.id} - ${other}`,
        ).toBe(true);
        expect(Object.keys(o.relationships), `${other} knows ${p.id} back`).toContain(p.id);
      }
    }
    // Varied: ages from children to the retired, several jobs, many looks.
    const ages = personas.map((p) => p.age);
    expect(Math.min(...ages)).toBeLessThan(18);
    expect(Math.max(...ages)).toBeGreaterThan(40);
    expect(new Set(personas.map((p) => p.workplace).filter(Boolean)).size).toBeGreaterThan(4);
    expect(new Set(personas.map((p) => p.sprite.shirt)).size).toBeGreaterThan(8);
  });

  it('writes the same files for the same seed, and another town for another seed', () => {
    const a = tempDir('smalltown-gen-');
    const b = tempDir('smalltown-gen-');
    const c = tempDir('smalltown-gen-');
    generateTown({ agents: 30, outDir: a, seed: 9 });
    generateTown({ agents: 30, outDir: b, seed: 9 });
    generateTown({ agents: 30, outDir: c, seed: 10 });
    const fa = filesOf(a);
    expect(fa.size).toBe(30 + 3);
    expect(filesOf(b)).toEqual(fa);
    expect(filesOf(c).get('town.tmj')).not.toEqual(fa.get('town.tmj'));
  });

  it('lives a whole game day on the offline mind', async () => {
    const out = tempDir('smalltown-gen-');
    generateTown({ agents: 30, outDir: out, seed: 4 });
    const town = await openOfflineTown({ mapFile: path.join(out, 'town.tmj'), personasDir: path.join(out, 'personas'), startTime: '2026-02-13T00:00' });
    try {
      await town.loop.runLockstep(town.gameMs + GAME_MS_PER_DAY, 30_000);
      const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
      expect(events.filter((e) => e.kind === 'agent.warning')).toEqual([]);
      // Everyone planned the day and went somewhere; people met and talked.
      for (const id of town.personas.keys()) {
        expect(
          events.some((e) => e.kind === 'plan.made' && e.agentId === id),
          id,
        ).toBe(true);
        expect(
          events.some((e) => e.kind === 'agent.move' && e.agentId === id),
          id,
        ).toBe(true);
      }
      expect(events.filter((e) => e.kind === 'conversation.start').length).toBeGreaterThan(5);
      // Workers reached their workplace.
      const workers = [...town.personas.values()].filter((p) => p.workplace);
      const atWork = workers.filter((p) =>
        events.some((e) => e.kind === 'agent.action' && e.agentId === p.id && (e.data as { address: string }).address.startsWith(p.workplace!)),
      );
      expect(atWork.length).toBe(workers.length);
      // Nothing a reader would stop at (analysis/defects.ts).
      expect(scanWorldDefects(town.db)).toEqual([]);
    } finally {
      await town.close();
    }
  }, 120_000);

  it('refuses a bad count or seed with a clear message', () => {
    expect(() => generateTown({ agents: 0, outDir: tempDir(), seed: 1 })).toThrow(/--agents 0: expected a whole number of people, 1 or more/);
    expect(() => generateTown({ agents: 5, outDir: tempDir(), seed: -1 })).toThrow(/--seed -1/);
    const cli = () => execFileSync('npx', ['tsx', 'scripts/generateTown.ts', '--agents', 'many', '--out', tempDir()], { encoding: 'utf8', stdio: 'pipe' });
    expect(cli).toThrow(/--agents many: expected a whole number/);
  });
});
