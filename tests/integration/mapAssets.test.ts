// A map from elsewhere, served by a real server: the map file and the images it references, found
// relative to the map (its tileset sits in a sibling folder), and nothing else.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTown, tempDir, waitFor } from '../helpers';
import { describeMapAssets } from '../../server/src/api/mapAssets';

const MAP = 'tests/fixtures/adopted/maps/meadow.tmj';
const PERSONAS = 'tests/fixtures/adopted/personas';

/** GET with the path sent exactly as written (fetch would tidy "/maps/../x" away before sending). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serving an adopted map', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;

  beforeAll(async () => {
    town = await startTestTown({ mapFile: MAP, personasDir: PERSONAS, startTime: '2026-02-13T06:00', rate: 600 });
  });
  afterAll(async () => {
    await town?.close();
  });

  it('serves the map with its tileset image rewritten to a URL beside it, and the image there', async () => {
    const info = (await (await fetch(`${town.url}/api/town`)).json()) as { mapUrl: string };
    expect(info.mapUrl).toBe('/maps/meadow.tmj');
    const res = await fetch(`${town.url}${info.mapUrl}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const map = (await res.json()) as { tilesets: Array<{ image: string }>; layers: unknown[] };
    expect(map.tilesets.map((t) => t.image)).toEqual(['assets/0/meadow.png']);
    // Resolved as the browser does: relative to the map's URL.
    const image = await fetch(new URL(map.tilesets[0].image, `${town.url}${info.mapUrl}`));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(fs.readFileSync('tests/fixtures/adopted/tilesets/meadow.png'))).toBe(true);
  });

  it('serves nothing else: not a file beside the map, not the tileset by its own path, not outside', async () => {
    expect(fs.existsSync(path.join(path.dirname(MAP), 'build-notes.sh'))).toBe(true);
    for (const p of ['/maps/build-notes.sh', '/maps/', '/maps/assets/0/build-notes.sh', '/maps/assets/1/meadow.png', '/maps/tilesets/meadow.png']) {
      const res = await fetch(`${town.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('secret');
    }
    for (const p of ['/maps/../package.json', '/maps/%2e%2e/package.json', '/maps/assets/0/..%2f..%2fpackage.json', '/maps/../maps/build-notes.sh']) {
      const res = await rawGet(town.port, p);
      expect([400, 404], p).toContain(res.status);
      expect(res.body, p).not.toContain('"name": "smalltown"');
      expect(res.body, p).not.toContain('secret');
    }
  });

  it('runs its residents: the bedtime after midnight and the tent for a bedroom load, and agents get plans', async () => {
    expect(
      town.town.sim
        .agents()
        .map((a) => a.spec.id)
        .sort(),
    ).toEqual(['rowan', 'sage']);
    expect(town.town.sim.agent('rowan')!.spec.bedAddress).toBe('Camp: tent: sleeping bag');
    await waitFor('both residents to have a plan', () => town.town.sim.agents().every((a) => a.plan !== null), 30_000);
  });
});

describe('the assets a map references', () => {
  it('are listed with where they resolve, and missing ones said', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'maps'));
    fs.mkdirSync(path.join(dir, 'tilesets'));
    fs.copyFileSync('tests/fixtures/adopted/tilesets/meadow.png', path.join(dir, 'tilesets', 'meadow.png'));
    const map = JSON.parse(fs.readFileSync(MAP, 'utf8')) as { tilesets: Array<Record<string, unknown>> };
    map.tilesets.push(
      { ...map.tilesets[0], firstgid: 5, name: 'again', image: '../tilesets/meadow.png' },
      { ...map.tilesets[0], firstgid: 9, name: 'lost', image: 'gone/lost image.png' },
      { ...map.tilesets[0], firstgid: 13, name: 'sly', image: '../../../package.json' },
    );
    fs.writeFileSync(path.join(dir, 'maps', 'm.tmj'), JSON.stringify(map));
    const { served, json } = describeMapAssets(path.join(dir, 'maps', 'm.tmj'));
    // One URL per file, however many tilesets name it; names are URL-encoded.
    expect(served.assets.map((a) => a.url)).toEqual(['assets/0/meadow.png', 'assets/1/lost%20image.png']);
    expect(served.missing.map((a) => a.reference)).toEqual(['gone/lost image.png']);
    // A map cannot expose a file that is not an image by naming it as a tileset.
    expect(served.refused).toEqual(['../../../package.json']);
    expect((JSON.parse(json) as typeof map).tilesets.map((t) => t.image)).toEqual([
      'assets/0/meadow.png',
      'assets/0/meadow.png',
      'assets/1/lost%20image.png',
      '',
    ]);
  });
});
