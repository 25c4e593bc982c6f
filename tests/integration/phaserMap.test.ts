// The Phaser-shaped map of tests/fixtures/phaser, adopted by adding layers: a town opens on it and its
// residents live a day there, walking on the ground and through the door, never through the World
// layer's walls; and a start with a broken map and broken personas lists the problems of both.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Town } from '../../server/src/town/Town';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { MapErrors } from '../../server/src/world/map';
import { tempDir, openOfflineTown } from '../helpers';

const FIXTURE = 'tests/fixtures/phaser';
const W = 16;
const DOOR = 7 * W + 4;

/** Every tile walked along a move's waypoints (each leg straight along a row or a column). */
function tilesOf(waypoints: readonly number[]): number[] {
  const out = [waypoints[0]];
  for (let i = 1; i < waypoints.length; i++) {
    const step = Math.sign((waypoints[i] % W) - (waypoints[i - 1] % W)) + W * Math.sign(Math.floor(waypoints[i] / W) - Math.floor(waypoints[i - 1] / W));
    for (let t = waypoints[i - 1]; t !== waypoints[i];) out.push((t += step));
  }
  return out;
}

function openTown(mapFile: string, personasDir: string): Promise<Town> {
  return openOfflineTown({ mapFile, personasDir, startTime: '2026-02-13T00:00' });
}

describe('a Phaser-shaped map, adopted', () => {
  it('is lived on for a day: the residents walk out of the door to the green and back, never through a wall', async () => {
    const town = await openTown(path.join(FIXTURE, 'maps/town-adopted.json'), path.join(FIXTURE, 'personas'));
    try {
      await town.loop.runLockstep(town.gameMs + GAME_MS_PER_DAY, 30_000);
      const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
      expect(events.filter((e) => e.kind === 'agent.warning')).toEqual([]);
      const moves = events.filter((e) => e.kind === 'agent.move');
      for (const id of ['ivy', 'moss']) {
        const paths = moves.filter((e) => e.agentId === id).map((e) => tilesOf((e.data as { path: number[] }).path));
        expect(paths.length, id).toBeGreaterThan(1);
        for (const p of paths) for (const t of p) expect(town.map.collision[t], `${id} on tile ${t % W},${Math.floor(t / W)}`).toBe(0);
        // Out of the cottage and back in: through its one door.
        expect(paths.filter((p) => p.includes(DOOR)).length, id).toBeGreaterThanOrEqual(2);
        expect(
          events.some((e) => e.kind === 'agent.action' && e.agentId === id && (e.data as { address: string }).address.startsWith('Green: lawn')),
          id,
        ).toBe(true);
      }
    } finally {
      await town.close();
    }
  }, 120_000);

  it("with problems in the map, lists the persona files' problems in the same start", async () => {
    const dir = tempDir();
    const map = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'maps/town-adopted.json'), 'utf8')) as { layers: Array<Record<string, unknown>> };
    // The map's problem: a place not named "Sector: arena".
    const places = map.layers.find((l) => l.name === 'places')!.objects as Array<Record<string, unknown>>;
    places.push({ id: 50, name: 'Shed', x: 0, y: 10 * 32, width: 64, height: 64, rotation: 0 });
    fs.writeFileSync(path.join(dir, 'town.json'), JSON.stringify(map));
    // The personas' problem: a routine place the map does not have.
    fs.mkdirSync(path.join(dir, 'personas'));
    fs.copyFileSync(path.join(FIXTURE, 'personas/moss.yaml'), path.join(dir, 'personas/moss.yaml'));
    const ivy = fs.readFileSync(path.join(FIXTURE, 'personas/ivy.yaml'), 'utf8').replace('place: "work"', 'place: "Nowhere Street: attic"');
    fs.writeFileSync(path.join(dir, 'personas/ivy.yaml'), ivy);
    const opening = openTown(path.join(dir, 'town.json'), path.join(dir, 'personas'));
    await expect(opening).rejects.toThrow(MapErrors);
    const error = (await opening.catch((e: unknown) => e)) as MapErrors;
    expect(error.errors.map((e) => e.message)).toEqual([expect.stringMatching(/layer 'places': rectangle 'Shed' \(id 50\) must be named "Sector: arena"/)]);
    expect(error.personaErrors.map((e) => e.message)).toEqual([expect.stringMatching(/ivy\.yaml: routine\[2\]\.place: .*Nowhere Street/)]);
    expect(error.message).toMatch(
      /1 problem in the map .*\n.*Shed[\s\S]*and 1 problem in the persona files, checked against the map as far as it could be read:\n.*ivy\.yaml/,
    );
  });
});
