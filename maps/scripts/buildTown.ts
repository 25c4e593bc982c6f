// Generates the shipped town, maps/town.tmj, a Tiled map that follows maps/README.md, and its art.
// `npm run map:build`. Deterministic: the same files on every run. Open the result in Tiled to edit by hand.
import fs from 'node:fs';
import path from 'node:path';
import { drawCharacterTemplate, drawTileset } from './drawArt';
import { home, tmjText, TownBuilder } from './townBuilder';

const W = 100;
const H = 80;
const OUT = path.resolve('maps/town.tmj');

function build(t: TownBuilder): void {
  t.lawn();
  buildRoads(t);
  buildHomes(t);
  buildPublicPlaces(t);
  buildPark(t);
  t.scenery();
  buildSpawns(t);
}

/** Roads: three east-west, three north-south. */
function buildRoads(t: TownBuilder): void {
  const { ground } = t;
  for (const ry of [18, 40, 62]) {
    t.fill(ground, 0, ry, W, 2, 'road');
    t.reserve(0, ry - 1, W, 4);
  }
  for (const rx of [24, 50, 75]) {
    t.fill(ground, rx, 0, 2, H, 'road');
    t.reserve(rx - 1, 0, 4, H);
  }
}

/** Homes: two rows of four, doors on the road below, and the Bennetts' garden. */
function buildHomes(t: TownBuilder): void {
  const { ground, furniture } = t;
  const kitchen = ['stove', 'fridge', 'table'];
  t.building(
    'Rivera House',
    1,
    10,
    5,
    home(['bed', 'desk', 'wardrobe'], kitchen, ['sofa', 'bookshelf'], [{ arena: 'bathroom', width: 3, floor: 'tile floor', objects: ['shower', 'sink'] }]),
    { room: 2, side: 'bottom', pathTo: 18 },
  );
  t.building('Okafor House', 28, 10, 5, home(['bed', 'desk'], kitchen, ['sofa', 'piano']), { room: 2, side: 'bottom', pathTo: 18 });
  t.building('Lindqvist House', 54, 10, 5, home(['bed', 'desk', 'easel'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 18 });
  t.building('Tanaka House', 79, 10, 5, home(['bed', 'bed 2', 'desk'], kitchen, ['sofa', 'tv']), { room: 2, side: 'bottom', pathTo: 18 });
  t.building('Moreau House', 3, 32, 5, home(['bed', 'desk'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 40 });
  t.building('Haddad House', 29, 32, 5, home(['bed', 'desk'], kitchen, ['sofa', 'tv']), { room: 2, side: 'bottom', pathTo: 40 });
  t.building('Kowalski Apartment', 57, 32, 5, home(['bed', 'desk'], kitchen, null), { room: 1, side: 'bottom', pathTo: 40 });
  t.building('Bennett House', 79, 32, 5, home(['bed', 'bed 2', 'wardrobe'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 40 });
  // Bennett garden: an open plot above the house, fenced at the back.
  t.fill(ground, 81, 24, 14, 5, 'grass');
  t.place('Bennett House: garden', 81, 24, 14, 5);
  for (let i = 81; i < 95; i++) t.obstacle(i, 23, 'fence');
  t.object('flower bed', 83, 25);
  t.object('bench', 91, 27);
  // A second flower patch is scenery only: the layout names one flower bed.
  t.put(furniture, 85, 25, 'flower bed');
  t.block(85, 25);
  t.reserve(80, 22, 16, 10);
}

/** Public places on the third row, doors on the road below; the Town Hall on the bottom row. */
function buildPublicPlaces(t: TownBuilder): void {
  t.building(
    'Hobbs Cafe',
    1,
    51,
    8,
    [
      {
        arena: 'cafe',
        width: 14,
        floor: 'wood floor',
        objects: [
          ['counter', 1, 0],
          ['coffee machine', 3, 0],
          ['table', 3, 4],
          ['table 2', 7, 4],
          ['table 3', 11, 4],
        ],
      },
      { arena: 'kitchen', width: 5, floor: 'tile floor', objects: ['stove', 'sink'] },
    ],
    { room: 0, side: 'bottom', pathTo: 62 },
  );
  t.building(
    'Oak Hill College',
    26,
    51,
    8,
    [
      { arena: 'library', width: 8, floor: 'carpet', objects: ['bookshelf', 'bookshelf 2', ['desk', 2, 4], ['desk 2', 5, 4]] },
      {
        arena: 'classroom',
        width: 7,
        floor: 'wood floor',
        objects: [
          ['blackboard', 3, 0],
          ['lectern', 3, 2],
          ['desk', 3, 5],
        ],
      },
      { arena: 'office', width: 4, floor: 'carpet', objects: ['desk', 'bookshelf'] },
    ],
    { room: 1, side: 'bottom', pathTo: 62 },
  );
  t.building(
    'The Rose and Crown Pub',
    55,
    51,
    8,
    [
      {
        arena: 'bar',
        width: 13,
        floor: 'wood floor',
        objects: [
          ['bar counter', 2, 0],
          ['piano', 11, 0],
          ['table', 3, 4],
          ['table 2', 8, 4],
        ],
      },
    ],
    { room: 0, side: 'bottom', pathTo: 62 },
  );
  t.building(
    'Corner Shop',
    82,
    51,
    8,
    [{ arena: 'shop', width: 9, floor: 'tile floor', objects: [['counter', 1, 5], 'shelf', ['shelf 2', 4, 0], ['fridge', 8, 0]] }],
    { room: 0, side: 'bottom', pathTo: 62 },
  );

  // Town Hall, on the bottom row, door facing the road above.
  t.building(
    'Town Hall',
    3,
    67,
    7,
    [
      { arena: 'office', width: 7, floor: 'carpet', objects: ['desk', 'desk 2', 'filing cabinet'] },
      { arena: 'council chamber', width: 8, floor: 'carpet', objects: [['meeting table', 3, 3]] },
    ],
    { room: 1, side: 'top', pathTo: 63 },
  );
}

/** Johnson Park: paths, a pond, trees, a fountain, benches, a garden and a picnic table. */
function buildPark(t: TownBuilder): void {
  const { ground } = t;
  const park = { x: 27, y: 65, w: 47, h: 14 };
  t.place('Johnson Park: park', park.x, park.y, park.w, park.h);
  t.reserve(park.x - 1, park.y - 1, park.w + 2, park.h + 2);
  t.fill(ground, park.x, park.y + 6, park.w, 2, 'path');
  t.fill(ground, park.x + 22, park.y, 3, park.h, 'path');
  t.fill(ground, park.x + 20, park.y + 4, 7, 6, 'plaza');
  for (let j = 0; j < 4; j++)
    for (let i = 0; i < 7; i++) {
      t.put(ground, park.x + 33 + i, park.y + 1 + j, 'water');
      t.block(park.x + 33 + i, park.y + 1 + j);
    }
  const parkObjects: Array<[string, number, number]> = [
    ['fountain', park.x + 23, park.y + 6],
    ['bench', park.x + 18, park.y + 5],
    ['bench 2', park.x + 28, park.y + 5],
    ['garden', park.x + 8, park.y + 2],
    ['picnic table', park.x + 12, park.y + 10],
  ];
  for (const [name, x, y] of parkObjects) t.object(name, x, y);
  for (const [x, y] of [
    [2, 1],
    [5, 3],
    [3, 10],
    [6, 12],
    [16, 1],
    [15, 12],
    [30, 10],
    [32, 12],
    [42, 9],
    [44, 12],
    [45, 2],
    [38, 11],
  ])
    t.obstacle(park.x + x, park.y + y, 'tree');
  for (const [x, y] of [
    [9, 3],
    [10, 3],
    [9, 4],
    [10, 4],
    [7, 3],
  ])
    t.put(ground, park.x + x, park.y + y, 'garden');
}

/** Spawn points on the roads. */
function buildSpawns(t: TownBuilder): void {
  const spawnTiles = [
    [12, 18],
    [37, 18],
    [62, 18],
    [87, 18],
    [12, 40],
    [37, 40],
    [62, 40],
    [87, 40],
    [12, 62],
    [37, 62],
    [62, 62],
    [87, 62],
  ];
  spawnTiles.forEach(([x, y], i) => t.spawn(`spawn ${i + 1}`, x, y));
}

export function buildTown(): void {
  drawTileset(path.resolve('maps/tilesets/town.png'));
  drawCharacterTemplate(path.resolve('client/public/assets/characters-base.png'));
  const t = new TownBuilder(W, H);
  build(t);
  fs.writeFileSync(OUT, tmjText(t.toTmj('Smalltown')));
  console.log(
    `wrote ${path.relative(process.cwd(), OUT)}: ${W}x${H} tiles, ${t.places.length} place rectangles, ${t.objects.length} objects, ${t.spawns.length} spawns`,
  );
}

buildTown();
