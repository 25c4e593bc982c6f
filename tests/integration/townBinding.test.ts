// Issue 45: a world file knows the town it belongs to. The README's big-town command run in a checkout where
// the small town has run (MAP_FILE and PERSONAS_DIR of another town, WORLD left at its default) used to open
// data/smalltown.sqlite on the new map and write `agent.removed` for all its residents; it is refused now,
// with the WORLD=<name> command that does what was meant, and the file left byte for byte as it was.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTown } from '../../scripts/generateTown';
import { startTestTown, subsetPersonas, tempDir } from '../helpers';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { describeEvent } from '../../server/src/protocol/feedText';

const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function removals(file: string): number {
  const db = openWorldDb(file, null, { readonly: true });
  try {
    return [...db.events.scan({ kinds: ['agent.removed'] })].length;
  } finally {
    db.close();
  }
}

describe('a world file bound to its town', () => {
  let big: { mapFile: string; personasDir: string };
  beforeAll(() => {
    const out = path.join(tempDir('smalltown-big-'), 'big');
    const town = generateTown({ agents: 4, outDir: out, seed: 2 });
    big = { mapFile: town.mapFile, personasDir: town.personasDir };
  });

  /** A small town that has run and closed: its data folder and world file. */
  async function usedSmallTown(): Promise<{ dataDir: string; file: string }> {
    const first = await startTestTown({ rate: 600 });
    await first.town.commands.step(5, 'test');
    await first.close();
    return { dataDir: first.dataDir, file: path.join(first.dataDir, 'smalltown.sqlite') };
  }

  it("refuses the big-town command on a used checkout's small town, names WORLD=<name>, and leaves the file as it was", async () => {
    const { dataDir, file } = await usedSmallTown();
    const before = digest(file);
    const error = await startTestTown({ dataDir, mapFile: big.mapFile, personasDir: big.personasDir }).then(
      async (t) => {
        await t.close();
        return null;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/smalltown\.sqlite is the world of another town \(the map maps\/town\.tmj, the personas in personas/);
    expect(error?.message).toMatch(/WORLD=big MAP_FILE=\S*big\/town\.tmj PERSONAS_DIR=\S*big\/personas npm start/);
    expect(error?.message).toMatch(/--move-world/);
    expect(digest(file)).toBe(before);
    expect(removals(file)).toBe(0);
    // The small town opens again as it was.
    const again = await startTestTown({ dataDir });
    expect(again.town.sim.agents().length).toBeGreaterThan(5);
    await again.close();
  }, 120_000);

  it('refuses it too on a world made before files recorded their town (its first run and residents tell)', async () => {
    const { dataDir, file } = await usedSmallTown();
    const db = new Database(file);
    db.prepare("DELETE FROM meta WHERE key LIKE 'town_%'").run();
    db.close();
    await expect(startTestTown({ dataDir, mapFile: big.mapFile, personasDir: big.personasDir })).rejects.toThrow(/is the world of another town/);
    expect(removals(file)).toBe(0);
  }, 120_000);

  it('keeps a town moved to another folder or edited in place; --move-world moves it on purpose, departures in the feed', async () => {
    const { dataDir, file } = await usedSmallTown();
    // The same people in another folder (a copy of personas/): the same town.
    const moved = subsetPersonas(
      fs
        .readdirSync('personas')
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => f.replace(/\.yaml$/, '')),
    );
    const same = await startTestTown({ dataDir, personasDir: moved });
    expect(same.town.resumed).toBe(true);
    await same.close();
    expect(removals(file)).toBe(0);
    // On purpose: the world moves; its residents with no persona file there leave, each a line of the feed.
    const onPurpose = await startTestTown({ dataDir, mapFile: big.mapFile, personasDir: big.personasDir, moveWorld: true });
    await onPurpose.town.commands.step(1, 'test');
    const lines = [...onPurpose.town.db.events.scan({ kinds: ['agent.removed'] })]
      .map((e) => describeEvent(e, (id) => id))
      .filter((t): t is string => t !== null && t.includes('left the town'));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines[0]).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ left the town \(its persona file is gone\)$/);
    await onPurpose.close();
  }, 120_000);
});
