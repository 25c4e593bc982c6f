// The importer's readers of the reference's text: times in prose, second-person whispers, CSV cells,
// and tile areas as rectangles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clausesOf, idOf, keyWords, linesAbout, parseTimePhrase, thirdPerson, timesIn } from '../../scripts/smallville/english';
import { ASSETS_DIR, parseCsv, readWhispers } from '../../scripts/smallville/reference';
import { rectanglesOf } from '../../scripts/smallville/convertMap';
import { genderOf, withinChars } from '../../scripts/smallville/convertResidents';

describe('reading the reference residents', () => {
  it("tells from a background's pronouns which of a dorm's marked bathrooms is a resident's", () => {
    expect(genderOf('Ayesha Khan is a student at Oak Hill College. She is writing her senior thesis.')).toBe('female');
    expect(genderOf('Wolfgang Schulz studies chemistry; he runs in the park and exercises in his room.')).toBe('male');
    expect(genderOf('Sam Moore is retired.')).toBeNull();
    // "woman's" is not "man's" read twice.
    expect(genderOf("The woman's bathroom and the man's bathroom")).toBeNull();
  });

  it('reads times of day as people write them, typos included', () => {
    expect(['11pm', 'midnight', '7amam', '17:30pm', '12pm', '12am', '6 a.m.', 'noon'].map((t) => parseTimePhrase(t))).toEqual([
      23 * 60,
      0,
      7 * 60,
      17 * 60 + 30,
      12 * 60,
      0,
      6 * 60,
      12 * 60,
    ]);
    // A bedtime with no am/pm: 11 is at night, 2 after midnight.
    expect([parseTimePhrase('11', 'bed'), parseTimePhrase('2', 'bed'), parseTimePhrase('5', 'pm')]).toEqual([23 * 60, 2 * 60, 17 * 60]);
    expect(timesIn('opens at 8am everyday, and stands at the counter until 8pm').map((t) => t.minute)).toEqual([8 * 60, 20 * 60]);
  });

  it("turns second-person whispers into the resident's own third-person memories", () => {
    const latoya = (s: string) => thirdPerson(s, 'Latoya Williams');
    expect(latoya("Rajiv Patel is your housemate whom you've known for about a year")).toBe(
      "Rajiv Patel is Latoya Williams's housemate whom Latoya has known for about a year",
    );
    expect(latoya('You and Rajiv Patel sometimes talk about politics')).toBe('Latoya Williams and Rajiv Patel sometimes talk about politics');
    expect(latoya('You like to talk about politics and you are often right')).toBe('Latoya Williams likes to talk about politics and Latoya is often right');
    expect(latoya('You sometimes try to spend time at Hobbs Cafe')).toBe('Latoya Williams sometimes tries to spend time at Hobbs Cafe');
    expect(latoya('Maria Lopez is a loyal friend to you')).toBe('Maria Lopez is a loyal friend to Latoya Williams');
    expect(latoya('For planning, you frequent Hobbs Cafe')).toBe('For planning, Latoya Williams frequents Hobbs Cafe');
    expect(latoya('You do not like Carlos Gomez')).toBe('Latoya Williams does not like Carlos Gomez');
    expect(latoya('Ada Quill bakes the rye you like')).toBe('Ada Quill bakes the rye Latoya Williams likes');
    expect(latoya('Ada Quill gave a loaf to you')).toBe('Ada Quill gave a loaf to Latoya Williams');
  });

  // Issue 42 §5: the importer's English on the reference's 25, each pattern in a fixture written after the real line.
  it('keeps a past-tense verb as it is, a misspelt modifier before one included, and reads "-- you" as a new subject', () => {
    expect(thirdPerson('You just moved in', 'Tamara Taylor')).toBe('Tamara Taylor just moved in');
    expect(thirdPerson('You know no one because you justn moved in', 'Tamara Taylor')).toBe('Tamara Taylor knows no one because Tamara justn moved in');
    expect(thirdPerson("You've known the Lin family since the time you helped them", 'Yuriko Yamamoto')).toBe(
      'Yuriko Yamamoto has known the Lin family since the time Yuriko helped them',
    );
    expect(thirdPerson('Tom Moreno is your husband -- you love him', 'Jane Moreno')).toBe("Tom Moreno is Jane Moreno's husband -- Jane loves him");
    // Controls: a present-tense verb still agrees, and a helper before a past participle is the verb.
    expect(thirdPerson('You just like the park', 'Ann Lee')).toBe('Ann Lee just likes the park');
    expect(thirdPerson('You have helped Sam', 'Ann Lee')).toBe('Ann Lee has helped Sam');
  });

  it('cuts a sentence into clauses, not a list of people into lines ("The son Eddy Lin.", "the Lin family, Mei, John.")', () => {
    const list = 'Sam Moore has known the Lin family, Mei, John, and the son Eddy Lin, for a few years since they live next block';
    expect(clausesOf(list)).toEqual([list]);
    const neighbours = "Jane Moreno knows the Lin family since they are Jane's neighbours -- the husband John Lin, and the son Eddy Lin";
    const named = (n: string) => (t: string) => t.includes(n);
    expect(linesAbout([neighbours], named('Eddy'), named('John'), 'Jane Moreno', /$^/)).toEqual([`${neighbours}.`]);
    expect(linesAbout([list], named('Mei'), named('Eddy'), 'Sam Moore', /$^/)).toEqual([`${list}.`]);
    // Controls: a clause after ", and" is still its own ("and is running the store", "and she works").
    expect(clausesOf('Abe is living with his wife, Bea, and is running the store')).toEqual(['Abe is living with his wife, Bea', 'and is running the store']);
    expect(clausesOf('Abe likes Bea, and she works too hard; Abe sings')).toEqual(['Abe likes Bea', 'and she works too hard', 'Abe sings']);
  });

  it("opens what one thinks of someone with a line about them, not one about someone else that names them in passing (Sam's of Jennifer)", () => {
    const yuriko = 'Sam Moore has known Yuriko Yamamoto since the time she helped Sam and his wife Jennifer Moore on some legal matters.';
    const jennifer = 'Sam Moore thinks Jennifer Moore works too hard.';
    const named = (n: string) => (t: string) => t.includes(n);
    expect(linesAbout([yuriko, jennifer], named('Jennifer'), named('Yuriko'), 'Sam Moore', /$^/)).toEqual([jennifer, yuriko]);
    // Control: what Sam thinks of Yuriko still opens with the line about her.
    expect(linesAbout([yuriko, jennifer], named('Yuriko'), named('Jennifer'), 'Sam Moore', /$^/)).toEqual([yuriko]);
  });

  it("keeps every line said of someone while they fit, not three (Klaus's fourth line about Maria)", () => {
    const lines = ['Klaus has a crush on Maria.', 'Klaus and Maria have known each other for 2 years.', 'They are classmates.', 'They are dormmates.'];
    expect(withinChars(lines, 600)).toEqual(lines);
    expect(withinChars(lines, 80)).toEqual(lines.slice(0, 2));
    expect(withinChars(['a very long line'], 5)).toEqual(['a very long line']);
  });

  it("reads the whisper file written for the simulation's cast: the 3-person one for three, the 25-person one for 25", () => {
    const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-whispers-'));
    const dir = path.join(checkout, ASSETS_DIR);
    fs.mkdirSync(dir, { recursive: true });
    const cast = ['Isabella Rodriguez', 'Maria Lopez', 'Klaus Mueller'];
    const more = ['Sam Moore', 'Tom Moreno'];
    const csv = (who: string[], what: string) => `Name,Whisper\n${who.map((n) => `${n},"${what}"`).join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'agent_history_init_n25.csv'), csv([...cast, ...more], 'You know the town'));
    fs.writeFileSync(path.join(dir, 'agent_history_init_n3.csv'), csv(cast, 'You know the three'));
    expect(path.basename(readWhispers(checkout, cast).file ?? '')).toBe('agent_history_init_n3.csv');
    expect(readWhispers(checkout, cast).byName.get('Maria Lopez')).toEqual(['You know the three']);
    // Control: for the whole cast, the file that tells them all.
    expect(path.basename(readWhispers(checkout, [...cast, ...more]).file ?? '')).toBe('agent_history_init_n25.csv');
    fs.rmSync(checkout, { recursive: true, force: true });
  });

  it('makes persona ids of names, and key words that match across spellings', () => {
    expect(idOf('Isabella Rodriguez')).toBe('isabella-rodriguez');
    expect(idOf("Zoë  O'Neil")).toBe('zoe-o-neil');
    expect(keyWords('The Willows Market and Pharmacy')).toEqual(keyWords('Willow Market and Pharmacy'));
    expect(keyWords('take classes')).toEqual(['take', 'class']);
  });

  it('reads CSV as the reference does: quoted cells, trimmed, one long row or many', () => {
    expect(parseCsv('Name,Whisper\nBram,"You buy bread; you, sometimes, read"\n')).toEqual([
      ['Name', 'Whisper'],
      ['Bram', 'You buy bread; you, sometimes, read'],
    ]);
    expect(parseCsv('32134, the Ville')).toEqual([['32134', 'the Ville']]);
    expect(parseCsv('0, 0, 1\r\n')).toEqual([['0', '0', '1']]);
  });
});

describe('a tile area as rectangles', () => {
  it('covers exactly its tiles, merging rows that line up', () => {
    const w = 10;
    // An L: rows 0-2 at x 0-1, and row 2 also x 2-4.
    const tiles = [0, 1, 10, 11, 20, 21, 22, 23, 24];
    const rects = rectanglesOf(tiles, w);
    expect(rects).toEqual([
      { x: 0, y: 0, w: 2, h: 2 },
      { x: 0, y: 2, w: 5, h: 1 },
    ]);
    const covered = rects.flatMap((r) => Array.from({ length: r.w * r.h }, (_, i) => (r.y + Math.floor(i / r.w)) * w + r.x + (i % r.w)));
    expect(covered.sort((a, b) => a - b)).toEqual(tiles);
    // Two separate runs in one row stay separate.
    expect(rectanglesOf([0, 2], w)).toEqual([
      { x: 0, y: 0, w: 1, h: 1 },
      { x: 2, y: 0, w: 1, h: 1 },
    ]);
  });
});
