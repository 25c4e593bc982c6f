// A map shaped like Phaser's tilemap examples (tests/fixtures/phaser/): its tileset marks ground, walls,
// tree trunks and leaves `collides: true`, its "World" layer is the one Phaser turns collision on for,
// and its `Objects` layer holds a "Spawn Point". It is adopted by adding layers only (maps/README.md).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTownMap, MapErrors, parseTownMap, readTownMap } from '../../server/src/world/map';

const ORIGINAL = 'tests/fixtures/phaser/maps/town.json';
const ADOPTED = 'tests/fixtures/phaser/maps/town-adopted.json';
const W = 16;

interface Json {
  layers: Array<{ name: string; type: string; data?: number[]; objects?: Array<Record<string, unknown>>; properties?: unknown[] }>;
  properties?: unknown[];
  [k: string]: unknown;
}
const read = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
const messages = (json: unknown): string[] => readTownMap(json, 'phaser.json').problems.map((p) => p.message);
const blocked = (json: unknown, x: number, y: number): number => parseTownMap(json, 'phaser.json').collision[y * W + x];
const withMapProperty = (m: Json, value: string): Json => ({ ...m, properties: [{ name: 'collisionLayers', type: 'string', value }] });
const withLayerProperty = (m: Json, layer: string, value: boolean): Json => {
  const copy = structuredClone(m);
  copy.layers.find((l) => l.name === layer)!.properties = [{ name: 'collides', type: 'bool', value }];
  return copy;
};

describe('a map shaped like the Phaser examples', () => {
  it('as it comes, is refused only for the layers it lacks, and the hint keeps its Objects layer', () => {
    const problems = messages(read(ORIGINAL));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/layer 'places': missing: a map needs an object layer named 'places'/);
    expect(problems[1]).toMatch(
      /layer 'objects': missing.*layer 'Objects' holds other things, such as the point 'Spawn Point': keep it as it is and add a new object layer named 'obj/,
    );
    // Never "rename it", and no word about the ground or the spawn: by the default rule neither is blocked.
    expect(problems.join('\n')).not.toMatch(/rename|blocked|spawns/);
  });

  it('is adopted by adding layers only: every layer, tileset and property it came with is untouched', () => {
    const original = read(ORIGINAL);
    const adopted = read(ADOPTED);
    expect(adopted.tilesets).toEqual(original.tilesets);
    expect(adopted.properties).toEqual(original.properties);
    expect(adopted.layers.slice(0, original.layers.length)).toEqual(original.layers);
    expect(adopted.layers.slice(original.layers.length).map((l) => `${l.name} ${l.type}`)).toEqual(['places objectgroup', 'objects objectgroup']);
  });

  it('adopted, blocks the World layer only: the ground and the leaves above the agents are walkable', () => {
    const map = loadTownMap(ADOPTED);
    const world = read(ADOPTED).layers.find((l) => l.name === 'World')!.data!;
    // Exactly the World layer's tiles block: its walls and the tree trunk, with the door open.
    expect([...map.collision]).toEqual(world.map((g) => (g ? 1 : 0)));
    expect(map.collision[7 * W + 4]).toBe(0);
    expect(map.collision[2 * W + 12]).toBe(0);
    expect(map.spawns).toEqual([{ name: 'Spawn Point', tile: { x: 10, y: 9 } }]);
    expect([...map.objectsByAddress.keys()]).toEqual(['Cottage: room: bed', 'Cottage: room: bed 2', 'Cottage: room: table', 'Green: lawn: bench']);
  });

  it("under the old rule (the tileset's collides on every layer) is refused, naming the layer, the tileset property and the fix", () => {
    // The control: with the ground's marked tiles blocking, as the loader used to take them.
    const problems = messages(withMapProperty(read(ADOPTED), 'Below Player, World, Above Player'));
    const all = problems.join('\n');
    expect(all).toMatch(/'Green: lawn' has no walkable tile: all blocked by layer 'Below Player' \(tiles marked 'collides' in tileset 'tuxlike', \d+ tiles\)/);
    expect(all).toMatch(/layer 'Objects': spawn 'Spawn Point' \(id 1\) is on a tile 10,9 blocked by layer 'Below Player'/);
    expect(all).toMatch(/most of the map is blocked \(\d+ of 192 tiles\), by layer 'Below Player'/);
    expect(all).toMatch(/if agents walk on 'Below Player', take it out of the map property collisionLayers/);
  });

  it("takes which layers block from the map property collisionLayers, or the layers' bool property collides", () => {
    const adopted = read(ADOPTED);
    expect(blocked(withMapProperty(adopted, 'World, Above Player'), 12, 2)).toBe(1);
    expect(blocked(withMapProperty(adopted, 'World'), 12, 2)).toBe(0);
    expect(messages(withMapProperty(adopted, 'World, Roofs'))).toEqual([
      expect.stringMatching(/collisionLayers names 'Roofs', not a tile layer of the map \('Below Player', 'World', 'Above Player'\)/),
    ]);
    // A layer set true: only such layers block. The leaves then block, the World walls no longer do.
    const leaves = withLayerProperty(adopted, 'Above Player', true);
    expect(blocked(leaves, 12, 2)).toBe(1);
    expect(blocked(leaves, 1, 1)).toBe(0);
    // A layer set false leaves the default rule for the others.
    expect(blocked(withLayerProperty(adopted, 'World', false), 1, 1)).toBe(0);
    // Without the property the ground would block, with the map property it does; the default rule says why not.
    const refused = (): unknown => parseTownMap(withLayerProperty(adopted, 'Below Player', true), 'phaser.json');
    expect(refused).toThrow(MapErrors);
    expect(refused).toThrow(/if agents walk on 'Below Player', give the map a string property collisionLayers .* or give it a bool property collides = false/);
  });

  it('offers to rename a near-named layer only when it holds nothing else', () => {
    const m = read(ORIGINAL);
    m.layers.push({ name: 'Places', type: 'objectgroup', objects: [] });
    expect(messages(m)[0]).toMatch(/layer 'places': missing.*there is a layer 'Places': rename it to 'places'\?/);
    m.layers[m.layers.length - 1].objects = [{ id: 9, name: 'Spawn Point 2', x: 32, y: 32, point: true }];
    expect(messages(m)[0]).toMatch(/layer 'Places' holds other things, such as the point 'Spawn Point 2': keep it as it is and add/);
  });

  it('takes a spawn-named point from any object layer, and still wants one somewhere', () => {
    const m = read(ADOPTED);
    const objects = m.layers.find((l) => l.name === 'Objects')!;
    objects.objects![0].name = 'Chest';
    expect(messages(m)).toEqual([expect.stringMatching(/layer 'spawns': missing: a map needs an object layer named 'spawns'/)]);
    objects.objects![0].name = 'player spawn';
    expect(parseTownMap(m, 'phaser.json').spawns).toEqual([{ name: 'player spawn', tile: { x: 10, y: 9 } }]);
  });
});
