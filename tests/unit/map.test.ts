import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTownMap, parseTownMap, MapError } from '../../server/src/world/map';
import { tempDir } from '../helpers';

const TOWN = 'maps/town.tmj';
const raw = () => JSON.parse(fs.readFileSync(TOWN, 'utf8')) as { layers: Array<Record<string, unknown>>; tilesets: Array<Record<string, unknown>>; [k: string]: unknown };
const layer = (m: ReturnType<typeof raw>, name: string) => m.layers.find((l) => l.name === name)! as { objects: Array<Record<string, unknown>>; data: number[] };

function expectMapError(json: unknown, layerName: string | null, text: RegExp): void {
  try {
    parseTownMap(json, 'broken.tmj');
  } catch (error) {
    expect(error).toBeInstanceOf(MapError);
    expect((error as MapError).file).toBe('broken.tmj');
    expect((error as MapError).layer).toBe(layerName);
    expect((error as Error).message).toMatch(text);
    return;
  }
  throw new Error('the broken map loaded');
}

describe('the shipped town', () => {
  const town = loadTownMap(TOWN);

  it('is about 100x80 tiles of 32 px, in the world "Smalltown"', () => {
    expect([town.widthTiles, town.heightTiles, town.tileSizePx]).toEqual([100, 80, 32]);
    expect(town.places.world).toBe('Smalltown');
  });

  it('has six or more homes with bedrooms and kitchens, and every public place', () => {
    const homes = town.places.sectors.filter((s) => s.arenas.some((a) => a.name === 'bedroom') && s.arenas.some((a) => a.name === 'kitchen'));
    expect(homes.length).toBeGreaterThanOrEqual(6);
    for (const place of ['Hobbs Cafe: cafe', 'Corner Shop: shop', 'Oak Hill College: library', 'Johnson Park: park', 'The Rose and Crown Pub: bar', 'Town Hall: office'])
      expect(town.arenasByAddress.has(place), place).toBe(true);
  });

  it('builds the place tree world > sector > arena > object, with a walkable stand tile per object', () => {
    const counter = town.objectsByAddress.get('Hobbs Cafe: cafe: counter')!;
    expect(counter).toMatchObject({ sector: 'Hobbs Cafe', arena: 'cafe', name: 'counter' });
    for (const o of town.objectsByAddress.values()) {
      const t = o.standTile.y * town.widthTiles + o.standTile.x;
      expect(town.collision[t], o.address).toBe(0);
      expect(town.arenas[town.arenaIndexByTile[t]].address).toBe(`${o.sector}: ${o.arena}`);
    }
    expect(town.spawns.length).toBeGreaterThan(0);
  });
});

describe('a map that breaks the conventions', () => {
  it('names a missing collision layer', () => {
    const m = raw();
    m.layers = m.layers.filter((l) => l.name !== 'collision');
    expectMapError(m, 'collision', /missing/);
  });

  it('names a place rectangle that is not "Sector: arena"', () => {
    const m = raw();
    layer(m, 'places').objects[0].name = 'Cafe';
    expectMapError(m, 'places', /must be named "Sector: arena"/);
  });

  it('names an object outside every place', () => {
    const m = raw();
    layer(m, 'objects').objects.push({ id: 9999, name: 'lamp', x: 0, y: 0, width: 32, height: 32 });
    expectMapError(m, 'objects', /'lamp' \(id 9999\).*not inside any place/);
  });

  it('refuses external tilesets, saying how to embed them', () => {
    const m = raw();
    m.tilesets = [{ firstgid: 1, source: 'town.tsx' }];
    expectMapError(m, null, /Embed Tilesets/);
  });

  it('refuses an arena that cannot be reached on foot', () => {
    const m = raw();
    const c = layer(m, 'collision');
    const cafe = layer(m, 'places').objects.find((o) => o.name === 'Hobbs Cafe: cafe')!;
    const [x, y, w, h] = [cafe.x, cafe.y, cafe.width, cafe.height].map((v) => Number(v) / 32);
    // Wall the cafe in: block the ring of tiles around it (doors included).
    for (let i = x - 1; i <= x + w; i++) for (const j of [y - 1, y + h]) c.data[j * 100 + i] = 42;
    for (let j = y - 1; j <= y + h; j++) for (const i of [x - 1, x + w]) c.data[j * 100 + i] = 42;
    expectMapError(m, 'places', /'Hobbs Cafe: (cafe|kitchen)' cannot be reached/);
  });

  it('refuses isometric maps and files that are not JSON', () => {
    const m = raw();
    m.orientation = 'isometric';
    expectMapError(m, null, /only orthogonal/);
    const dir = tempDir();
    const file = path.join(dir, 'bad.tmj');
    fs.writeFileSync(file, '{ not json');
    expect(() => loadTownMap(file)).toThrow(/bad\.tmj: not valid JSON/);
  });

  it('loads any orthogonal map that follows the conventions, not only the shipped one', () => {
    const tiny = {
      orientation: 'orthogonal', width: 6, height: 4, tilewidth: 16, tileheight: 16, tilesets: [],
      properties: [{ name: 'world', type: 'string', value: 'Tiny' }],
      layers: [
        { name: 'collision', type: 'tilelayer', width: 6, height: 4, data: [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1] },
        { name: 'places', type: 'objectgroup', objects: [{ id: 1, name: 'Hut: room', x: 16, y: 16, width: 64, height: 32 }] },
        { name: 'objects', type: 'objectgroup', objects: [{ id: 2, name: 'bed', x: 16, y: 16, width: 16, height: 16 }] },
        { name: 'spawns', type: 'objectgroup', objects: [{ id: 3, name: 'door', x: 40, y: 40, point: true }] },
      ],
    };
    const map = parseTownMap(tiny, 'tiny.tmj');
    expect(map.places.world).toBe('Tiny');
    expect(map.objectsByAddress.get('Hut: room: bed')!.standTile).toEqual({ x: 1, y: 1 });
  });
});
