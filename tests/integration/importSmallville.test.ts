// `npm run import:smallville` on a small hand-made checkout in the reference's formats
// (tests/fixtures/smallville: a hamlet of five blocks and two residents): the result loads with the
// server's map and persona loaders, and a town starts on it and its residents get plans.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSmallville, type ImportResult } from '../../scripts/importSmallville';
import { linesAbout, thirdPersonText } from '../../scripts/smallville/english';
import { hoursADay, readOuting } from '../../scripts/smallville/convertResidents';
import { referenceDateToStartTime } from '../../scripts/smallville/reference';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonaFolder } from '../../server/src/world/persona';
import { startTestTown, tempDir, waitFor } from '../helpers';
import { planOfKept } from '../../server/src/protocol/plan';
import { planFromRoutine } from '../../server/src/agent/offlinePlanning';

const CHECKOUT = 'tests/fixtures/smallville';

describe("importing the reference's town", () => {
  let out: string;
  let result: ImportResult;

  beforeAll(() => {
    out = path.join(tempDir(), 'hamlet');
    result = importSmallville({ checkout: CHECKOUT, outDir: out });
  });

  it('writes a map that follows our conventions: arenas from tile areas, objects, spawns, collision', () => {
    const map = loadTownMap(result.mapFile);
    expect(map.places.world).toBe('the Hamlet');
    expect([map.widthTiles, map.heightTiles, map.tileSizePx]).toEqual([14, 8, 32]);
    const tree = Object.fromEntries(map.places.sectors.map((s) => [s.name, Object.fromEntries(s.arenas.map((a) => [a.name, a.objects.map((o) => o.name)]))]));
    // The walled-in Old Well is dropped: nobody can walk to it. The trailing space of a sector name is trimmed.
    expect(tree).toEqual({
      "Ada Quill's cottage": { 'main room': ['bed', 'desk', 'refrigerator'] },
      "Bram Stone's house": { 'main room': ['desk', 'bed'] },
      'Hamlet Bakery': { bakery: ['behind the bakery counter', 'oven', 'bakery customer seating', 'bakery customer seating 2'] },
      'Hamlet Green': { green: ['park garden', 'bench'] },
    });
    expect(map.objectsByAddress.get("Ada Quill's cottage: main room: bed")!.rect).toEqual({ x: 1, y: 1, w: 2, h: 1 });
    expect(map.spawns.map((s) => s.name).sort()).toEqual(
      ['ada-quill', 'bram-stone', "Ada Quill's cottage main room sp-A", "Bram Stone's house main room sp-A"].sort(),
    );
    expect(map.collision[0]).toBe(1);
    expect(map.collision[5 * 14 + 5]).toBe(0);
  });

  it("draws the reference's art: its layers (Foreground above the agents), not its block layers; images from the checkout, tall ones cut", () => {
    const tmj = JSON.parse(fs.readFileSync(result.mapFile, 'utf8')) as {
      layers: Array<{ name: string; visible?: boolean; properties?: Array<{ name: string; value: unknown }> }>;
      tilesets: Array<{ name: string; firstgid: number; image: string; tilecount: number }>;
    };
    expect(tmj.layers.map((l) => l.name)).toEqual([
      'Bottom Ground',
      'Wall',
      'Interior Furniture L1',
      'Foreground L1',
      'collision',
      'places',
      'objects',
      'spawns',
    ]);
    expect(tmj.layers.find((l) => l.name === 'Foreground L1')!.properties).toContainEqual({ name: 'above', type: 'bool', value: true });
    expect(tmj.tilesets.map((t) => [t.name, t.firstgid, t.tilecount])).toEqual([
      ['hamlet', 1, 3],
      ['tall rows 0-127', 4, 128],
      ['tall rows 128-129', 132, 2],
    ]);
    for (const t of tmj.tilesets) expect(fs.existsSync(path.resolve(out, t.image)), t.image).toBe(true);
    // The small tileset is the checkout's own file, not a copy.
    expect(path.resolve(out, tmj.tilesets[0].image)).toBe(
      path.resolve(CHECKOUT, 'environment/frontend_server/static_dirs/assets/the_ville/visuals/map_assets/hamlet/tiles.png'),
    );
    expect(tmj.tilesets[1].image).toBe('tilesets/tall-rows-0-127.png');
  });

  it('marks the staff side of a counter for staff: its baker stands behind it, the customers sit at the tables', () => {
    const map = loadTownMap(result.mapFile);
    const staffObjects = [...map.objectsByAddress.values()].filter((o) => o.staff).map((o) => o.address);
    expect(staffObjects).toEqual(['Hamlet Bakery: bakery: behind the bakery counter']);
    const { personas } = loadPersonaFolder(result.personasDir, map);
    const at = (id: string) => {
      const used = new Set<string>();
      for (let day = 0; day < 30; day++)
        for (const a of planFromRoutine(
          personas.find((p) => p.id === id)!,
          map,
          1,
          20_000 + day,
        ).actions)
          if (a.address.startsWith('Hamlet Bakery: bakery')) used.add(a.address);
      return used;
    };
    for (const customer of ['dov-reyes', 'cleo-marsh']) {
      const used = at(customer);
      expect(used.size, customer).toBeGreaterThan(1);
      expect(
        [...used].filter((a) => staffObjects.includes(a)),
        customer,
      ).toEqual([]);
    }
    expect(at('ada-quill').has(staffObjects[0])).toBe(true);
  });

  it('writes the residents as personas whose places exist, with times, work, memories and relationships', () => {
    const { personas, warnings } = loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile));
    expect(warnings).toEqual([]);
    const ada = personas.find((p) => p.id === 'ada-quill')!;
    const bram = personas.find((p) => p.id === 'bram-stone')!;
    expect([ada.home, ada.bedroom, ada.bed, ada.wakeAt, ada.sleepAt, ada.workplace]).toEqual([
      "Ada Quill's cottage",
      'main room',
      'bed',
      '04:00',
      '21:00',
      'Hamlet Bakery: bakery',
    ]);
    expect(ada.innate).toEqual(['warm', 'early riser', 'stubborn']);
    expect(ada.routine).toContainEqual(expect.objectContaining({ at: '05:00', place: 'work: behind the bakery counter' }));
    expect(ada.routine[0].at).toBe('04:00');
    // From nodes.json: the thought, not the idle event.
    expect(ada.seedMemories).toEqual(['Ada Quill wants to bake a rye loaf that Bram Stone will like']);
    expect(Object.keys(ada.relationships)).toEqual(['bram-stone']);
    // Bram goes to bed at midnight; his whispers become his own memories.
    expect([bram.wakeAt, bram.sleepAt, bram.workplace]).toEqual(['08:00', '00:00', null]);
    expect(bram.seedMemories[0]).toBe('Bram Stone buys bread from Ada Quill every morning');
    expect(bram.relationships['ada-quill']).toMatch(/Bram Stone buys bread from Ada Quill/);
    expect(bram.routine.at(-1)).toMatchObject({ at: '23:30', place: 'home: main room: bed' });
  });

  describe("the residents as the reference wrote them (issue 22 §2's shapes, in residents written for the fixture)", () => {
    const persona = (id: string) => loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile)).personas.find((p) => p.id === id)!;

    it('a relationship line holds what is said of that person, not a sentence about someone else nor the rest of `currently`', () => {
      const dov = persona('dov-reyes');
      // currently: "... living with his brother, Bram Stone, and is mending the bakery's old oven for Ada Quill. ..."
      expect(dov.relationships['bram-stone']).toBe("Bram Stone is Dov's older brother. Dov Reyes is living with his brother, Bram Stone.");
      expect(dov.relationships['ada-quill']).toMatch(/^Ada Quill bakes the rye .*\. Dov Reyes is mending the bakery's old oven for Ada Quill\.$/);
      expect(dov.relationships['ada-quill']).not.toMatch(/Bram|curious/);
      // The whisper "Ada Quill is your landlady. Bram Stone taught you chess": Bram's line does not open with Ada.
      const cleo = persona('cleo-marsh');
      expect(cleo.relationships['bram-stone']).toBe('Bram Stone taught Cleo chess.');
      expect(cleo.relationships['ada-quill']).not.toMatch(/Bram/);
      // A clause going on about the person by a pronoun is kept; one with the resident's own pronoun is theirs, not the person's.
      const jo = (t: string) => /\bJo\b/.test(t);
      const line = 'Al Ray lives with his wife of 30 years, Jo Ray, and spends his free time fishing, and she paints.';
      expect(linesAbout([line], jo, () => false, 'Al Ray', /\b(she|her)\b/i)).toEqual(['Al Ray lives with his wife of 30 years, Jo Ray.']);
      expect(persona('bram-stone').relationships['ada-quill']).toMatch(/Ada Quill is Bram Stone's neighbour, and Bram thinks she works too hard\.$/);
    });

    it("turns the reference's second person into the third, in currently and the lines drawn from it", () => {
      const dov = persona('dov-reyes');
      expect(dov.currently).toMatch(/\. Dov Reyes doesn't trust Cleo Marsh\.$/);
      expect(dov.relationships['cleo-marsh']).toBe("Dov Reyes doesn't trust Cleo Marsh.");
      for (const file of fs.readdirSync(result.personasDir))
        expect(fs.readFileSync(path.join(result.personasDir, file), 'utf8'), file).not.toMatch(/\byou(r)?\b/i);
      expect(result.report).toContain(`currently in the second person, rewritten in the third: "${dov.currently}"`);
      expect(thirdPersonText('Ann bakes. You like her bread; your dog does too.', 'Bo Li')).toBe("Ann bakes. Bo Li likes her bread; Bo's dog does too.");
      expect(thirdPersonText('Ann bakes.', 'Bo Li')).toBe('Ann bakes.');
    });
  });

  describe('habits kept as written, nothing invented', () => {
    const routineOf = (id: string) =>
      loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile))
        .personas.find((p) => p.id === id)!
        .routine.map((b) => `${b.at} ${b.activity} | ${b.place}`);

    it('"5 hours a day streaming" is five hours of streaming, at the desk; "eats at" a place is a meal there', () => {
      const cleo = routineOf('cleo-marsh');
      expect(cleo.slice(2, 5)).toEqual([
        '08:00 streaming her puzzle games online | home: main room: desk',
        '13:00 having lunch at Hamlet Bakery | Hamlet Bakery: bakery',
        '14:00 spending time at home | home: main room',
      ]);
      // Which meal "eats at Hamlet Bakery" means no rule can tell: the report says what was taken.
      expect(result.report).toContain('- **Cleo Marsh**: daily_plan_req: "eats at Hamlet Bakery." says no meal: taken as lunch at Hamlet Bakery');
      expect(hoursADay('She spends six hours a day video streaming, and sleeps late.')).toEqual({ hours: 6, activity: 'video streaming' });
      expect(hoursADay('She works long hours.')).toBeNull();
      expect(hoursADay('Mia spends at least 4 hours a day video streaming or gaming.')).toEqual({ hours: 4, activity: 'video streaming or gaming' });
    });

    it('an evening habit told only in a whisper is in the evening; a pub evening is a drink', () => {
      expect(routineOf('cleo-marsh').slice(-2)).toEqual([
        '19:00 spending the evening at Hamlet Bakery | Hamlet Bakery: bakery',
        '22:30 getting ready for bed | home: main room: bed',
      ]);
      expect(readOuting('Kai spends most evenings at the Fox Inn', 'Fox Inn')).toMatchObject({ activity: 'having a drink', when: 'evening' });
      expect(readOuting('Kai eats breakfast at Corner Cafe', 'Corner Cafe')).toMatchObject({
        activity: 'having breakfast',
        when: 'breakfast',
        undecided: null,
      });
    });

    it('"sit at a place reading" is reading there, in the morning it names', () => {
      const dov = routineOf('dov-reyes');
      expect(dov).toContain('09:00 reading at Hamlet Bakery | Hamlet Bakery: bakery');
      expect(readOuting('and sit at Corner cafe reading', 'Corner Cafe')).toMatchObject({ activity: 'reading', when: null });
      expect(readOuting('Kai likes to take a walk around Elm Park', 'Elm Park')).toMatchObject({ activity: 'taking a walk' });
      expect(readOuting('For planning, Kai frequents Corner Cafe for studying', 'Corner Cafe')).toMatchObject({ activity: 'studying' });
      for (const id of ['ada-quill', 'bram-stone', 'cleo-marsh', 'dov-reyes']) expect(routineOf(id).join('\n')).not.toMatch(/coffee|working at home/);
    });

    it('a retiree with a desk does no desk work; a place named only as the past is no outing, and the report says so', () => {
      const dov = routineOf('dov-reyes');
      expect(dov.filter((b) => /desk|Hamlet Green/.test(b))).toEqual([]);
      expect(dov.filter((b) => / \| home/.test(b) && !/breakfast|dinner|waking|bed/.test(b)).every((b) => /(spending time|relaxing) at home/.test(b))).toBe(
        true,
      );
      expect(result.report).toContain("- **Dov Reyes**: 'Hamlet Green' is named in learned, not as a habit");
      expect(result.report).toMatch(/Undecided: what no rule could tell[^]*Cleo Marsh[^]*Dov Reyes/);
      // Bram's currently says he writes: his desk is for writing.
      expect(routineOf('bram-stone')).toContain('09:00 writing at home | home: main room: desk');
      // His whisper "You sometimes sit on the green and read": 'the green' is Hamlet Green, the only sector ending so.
      expect(routineOf('bram-stone')).toContain('11:00 reading at Hamlet Green | Hamlet Green: green');
    });
  });

  it('says what it converted and what it dropped, in <out>/import-report.md', () => {
    const report = fs.readFileSync(path.join(out, 'import-report.md'), 'utf8');
    expect(report).toBe(result.report);
    for (const line of [
      '4 sectors, 4 arenas',
      '1 walkable arena tiles that cannot be walked to',
      '3 tiles marked with a sector but no arena',
      '1 spawning locations on tiles the town cannot walk to',
      '1 tiles with game object block 399, which no special_blocks row names',
      "layer 'Collisions': the reference's block ids",
      "tileset 'blocks': only the block layers used it",
      "tileset 'tall' (32x4160 px",
      '4 of 4 residents',
      'vision_r',
    ])
      expect(report).toContain(line);
  });

  it("starts the town on the reference's date (its reverie/meta.json), in the command and the report", () => {
    expect(result.startTime).toBe('2023-02-13T00:00');
    expect(result.command).toMatch(/^START_TIME=2023-02-13T00:00 WORLD=\S+ MAP_FILE=.*the_ville\.tmj PERSONAS_DIR=.*personas npm start$/);
    expect(result.report).toContain(result.command);
    expect(result.report).toContain("reverie/meta.json curr_time 'February 13, 2023, 00:00:00'");
    expect(referenceDateToStartTime('February 14, 2023')).toBe('2023-02-14T00:00');
    expect(referenceDateToStartTime('June 25, 2023, 17:05:30')).toBe('2023-06-25T17:05');
    expect(referenceDateToStartTime('13/02/2023')).toBeNull();
    // The control: a simulation without its meta.json gets no START_TIME, and the report says why.
    const copy = path.join(tempDir(), 'checkout');
    fs.cpSync(CHECKOUT, copy, { recursive: true });
    fs.rmSync(path.join(copy, 'environment/frontend_server/storage/base_the_hamlet_n2/reverie'), { recursive: true });
    const undated = importSmallville({ checkout: copy, outDir: path.join(copy, 'out') });
    expect(undated.startTime).toBeNull();
    expect(undated.command).toMatch(/^WORLD=\S+ MAP_FILE=/);
    expect(undated.report).toMatch(/The start date could not be read \(no base_the_hamlet_n2\/reverie\/meta\.json\)/);
  });

  it('still converts a checkout whose images, or whole art, are missing, and says so', () => {
    const copy = path.join(tempDir(), 'checkout');
    fs.cpSync(CHECKOUT, copy, { recursive: true });
    const visuals = path.join(copy, 'environment/frontend_server/static_dirs/assets/the_ville/visuals');
    fs.rmSync(path.join(visuals, 'map_assets/hamlet'), { recursive: true });
    const noImages = importSmallville({ checkout: copy, outDir: path.join(copy, 'out1') });
    expect(noImages.report).toContain('tileset image map_assets/hamlet/tiles.png: not in the checkout (the map draws without it)');
    expect(loadTownMap(noImages.mapFile).arenas).toHaveLength(4);
    fs.rmSync(visuals, { recursive: true });
    const noArt = importSmallville({ checkout: copy, outDir: path.join(copy, 'out2') });
    expect(noArt.report).toContain('the visual map (visuals/the_ville*.json): not found, so the town has no art; it still runs');
    expect(loadPersonaFolder(noArt.personasDir, loadTownMap(noArt.mapFile)).personas).toHaveLength(4);
  });

  it('says plainly when the folder is not a checkout of the reference', () => {
    expect(() => importSmallville({ checkout: tempDir(), outDir: path.join(tempDir(), 'x') })).toThrow(
      /the maze folder is missing: .*is this a checkout of joonspk-research\/generative_agents\?/,
    );
  });

  describe('a town on the import', () => {
    let town: Awaited<ReturnType<typeof startTestTown>>;
    beforeAll(async () => {
      town = await startTestTown({ mapFile: result.mapFile, personasDir: result.personasDir, startTime: '2026-02-13T03:30', rate: 600 });
    });
    afterAll(async () => {
      await town?.close();
    });

    it('starts, and its residents get plans', async () => {
      expect(
        town.town.sim
          .agents()
          .map((a) => a.spec.id)
          .sort(),
      ).toEqual(['ada-quill', 'bram-stone', 'cleo-marsh', 'dov-reyes']);
      await waitFor('every resident to have a plan', () => town.town.sim.agents().every((a) => a.plan !== null), 30_000);
      const ada = town.town.sim.agent('ada-quill')!;
      expect(planOfKept(ada.plan!).actions.some((a) => a.address === 'Hamlet Bakery: bakery: behind the bakery counter')).toBe(true);
    });

    it('serves the tileset images from the checkout and the cut bands beside the map', async () => {
      const map = (await (await fetch(`${town.url}/maps/the_ville.tmj`)).json()) as { tilesets: Array<{ image: string }> };
      for (const t of map.tilesets) {
        const res = await fetch(new URL(t.image, `${town.url}/maps/the_ville.tmj`));
        expect(res.status, t.image).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
      }
      expect((await fetch(`${town.url}/maps/import-report.md`)).status).toBe(404);
    });
  });
});
