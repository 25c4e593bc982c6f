// `npm run import:smallville` on the reference's own files: the Ville and its 25 residents, when a checkout of
// joonspk-research/generative_agents (or a fork that keeps its storage, e.g. crcresearch/agentic_collab) is named
// by SMALLVILLE_CHECKOUT. The checks are the faults once seen in the imported English and routines; each has a
// fixture test of its own in smallvilleText.test.ts and importSmallville.test.ts, which run everywhere.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSmallville, type ImportResult } from '../../scripts/importSmallville';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonaFolder, type Persona } from '../../server/src/world/persona';
import { parseClock } from '../../server/src/world/clockText';
import { tempDir } from '../helpers';

const checkout = process.env.SMALLVILLE_CHECKOUT ?? null;
const present = checkout !== null && fs.existsSync(path.join(checkout, 'environment/frontend_server/storage/base_the_ville_n25'));
if (!present)
  console.warn(
    'SKIPPED importing the real Ville: set SMALLVILLE_CHECKOUT to a checkout of joonspk-research/generative_agents ' +
      '(or a fork holding environment/frontend_server/storage/base_the_ville_n25)',
  );

function personasOf(result: ImportResult): Map<string, Persona> {
  const { personas } = loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile));
  return new Map(personas.map((p) => [p.id, p]));
}

/** Every sentence a persona file says: its texts, relationship lines, seed memories and routine activities. */
function sentencesOf(p: Persona): string[] {
  const texts = [p.learned, p.currently, p.lifestyle, ...Object.values(p.relationships), ...p.seedMemories, ...p.routine.map((r) => r.activity)];
  return texts.flatMap((t) => t.split(/(?<=[.!?])\s+/));
}

describe.skipIf(!present)("importing the reference's 25 residents", () => {
  let personas: Map<string, Persona>;

  beforeAll(() => {
    personas = personasOf(importSmallville({ checkout: checkout!, outDir: path.join(tempDir(), 'the_ville') }));
  }, 60_000);

  it('imports all 25, and they load', () => {
    expect(personas.size).toBe(25);
  });

  it('writes English verbs in the third person: no "moveds", "helpeds", "Jane love him"', () => {
    const all = [...personas.values()].flatMap(sentencesOf);
    expect(all.filter((s) => /\b(moveds|justns|helpeds|liveds)\b/.test(s))).toEqual([]);
    expect(all.filter((s) => /\b(Jane|Tom) love (him|her)\b/.test(s))).toEqual([]);
    expect(personas.get('jane-moreno')!.relationships['tom-moreno']).toMatch(/Jane loves him/);
  });

  it('keeps whole sentences: no lone "The son Eddy Lin." and no list cut short', () => {
    const all = [...personas.values()].flatMap(sentencesOf);
    expect(all.filter((s) => /^The son Eddy Lin\.?$/.test(s.trim()))).toEqual([]);
    expect(personas.get('sam-moore')!.relationships['john-lin']).toMatch(/Mei, John, and the son Eddy Lin/);
  });

  it("opens a line about someone with what is said of them, and keeps a line's later sentences (Klaus and Maria are dormmates)", () => {
    expect(personas.get('sam-moore')!.relationships['jennifer-moore']).toMatch(/^[^.]*Jennifer Moore/);
    expect(personas.get('klaus-mueller')!.relationships['maria-lopez']).toMatch(/dormmates/);
  });

  it('keeps meals at their hours and places: Maria dines around 7pm and studies and eats at Hobbs Cafe; Klaus has no lunch at 16:30', () => {
    const maria = personas.get('maria-lopez')!;
    const dinner = maria.routine.find((r) => /dinner/.test(r.activity));
    expect(dinner && parseClock(dinner.at)).toBe(19 * 60);
    expect(maria.routine.some((r) => [r.place].flat().some((p) => p.startsWith('Hobbs Cafe')))).toBe(true);
    const lunch = personas.get('klaus-mueller')!.routine.filter((r) => /lunch/.test(r.activity));
    expect(lunch.filter((r) => parseClock(r.at) > 14 * 60 + 30)).toEqual([]);
  });

  it('reads the whispers of the simulation it imports: --sim with three residents takes the three-person file', () => {
    const three = personasOf(
      importSmallville({ checkout: checkout!, outDir: path.join(tempDir(), 'the_ville_3'), sim: 'base_the_ville_isabella_maria_klaus' }),
    );
    expect([...three.keys()].sort()).toEqual(['isabella-rodriguez', 'klaus-mueller', 'maria-lopez']);
    const csv = (n: number) =>
      fs.readFileSync(path.join(checkout!, `environment/frontend_server/static_dirs/assets/the_ville/agent_history_init_n${n}.csv`), 'utf8');
    // A whisper only the 25-person file holds (Isabella's line about the other 22) must not reach the three.
    const onlyIn25 = csv(25).includes('Ryan Park') && !csv(3).includes('Ryan Park');
    expect(onlyIn25).toBe(true);
    for (const p of three.values()) expect(sentencesOf(p).filter((s) => s.includes('Ryan Park'))).toEqual([]);
  });
});
