// Issue 21 §5, §6: a world file is opened only if it is ours and passes PRAGMA quick_check; otherwise the
// start is refused with the reason and the file is left byte for byte as it was. The chaos part writes
// random bytes into the middle of copies of a real world file, over several seeds.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTown, tempDir } from '../helpers';
import { WORLD_APPLICATION_ID } from '../../server/src/store/WorldDb';
import { Rng } from '../../server/src/sim/rng';

const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('world file checks on open', () => {
  let original: string;
  beforeAll(async () => {
    // A real world file: made, run a little, closed (its WAL checkpointed into the file).
    const town = await startTestTown({ rate: 600 });
    await town.town.commands.step(30, 'test');
    await town.close();
    original = path.join(town.dataDir, 'smalltown.sqlite');
  }, 60_000);
  afterAll(() => undefined);

  it('stamps a new world file with the application id, and a control copy of it opens again', async () => {
    const db = new Database(original, { readonly: true });
    expect(db.pragma('application_id', { simple: true })).toBe(WORLD_APPLICATION_ID);
    db.close();
    const dir = tempDir();
    fs.copyFileSync(original, path.join(dir, 'smalltown.sqlite'));
    const again = await startTestTown({ dataDir: dir });
    expect(again.town.resumed).toBe(true);
    await again.close();
  }, 60_000);

  it("refuses another application's SQLite file and does not write to it", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'smalltown.sqlite');
    const other = new Database(file);
    other.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada');");
    other.close();
    const before = digest(file);
    await expect(startTestTown({ dataDir: dir })).rejects.toThrow(/smalltown\.sqlite: is not a Smalltown world file \(it has the tables customers\)/);
    expect(digest(file)).toBe(before);
    // Another application's id: refused too, whatever its tables.
    const stamped = new Database(file);
    stamped.pragma('application_id = 42');
    stamped.close();
    const stampedDigest = digest(file);
    await expect(startTestTown({ dataDir: dir })).rejects.toThrow(/belongs to another application \(application_id 42\)/);
    expect(digest(file)).toBe(stampedDigest);
  }, 60_000);

  it('skips PRAGMA quick_check only for a file closed cleanly and unchanged since; damage written in place after is refused', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'smalltown.sqlite');
    const first = await startTestTown({ dataDir, rate: 600 });
    expect(first.town.db.openCheck).toBe('new');
    await first.town.commands.step(10, 'test');
    await first.close();
    // Closed cleanly: the next open trusts the file as it was left.
    const clean = await startTestTown({ dataDir });
    expect(clean.town.db.openCheck).toBe('clean close');
    // Killed: no clean close (the connection dropped as a kill would leave it, no stamp): the full check.
    clean.town.log.close();
    clean.town.db.db.close();
    await clean.close().catch(() => undefined);
    const afterKill = await startTestTown({ dataDir });
    expect(afterKill.town.db.openCheck).toBe('quick_check');
    await afterKill.close();
    // 16 KB of random bytes written into the cleanly closed file, in place: the stamp no longer matches, the check refuses it.
    const size = fs.statSync(file).size;
    const rng = new Rng(3);
    const bytes = Buffer.from(Array.from({ length: 16 * 1024 }, () => Math.floor(rng.next() * 256)));
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, bytes, 0, bytes.length, Math.floor(size / 2) - 8192);
    fs.closeSync(fd);
    const before = digest(file);
    await expect(startTestTown({ dataDir })).rejects.toThrow(/smalltown\.sqlite: (is damaged \(PRAGMA quick_check|is not a readable SQLite file)/);
    expect(digest(file)).toBe(before);
  }, 60_000);

  it('refuses a copy with 16 KB of random bytes in its middle, over 8 seeds, leaving each untouched', async () => {
    const size = fs.statSync(original).size;
    const refused: string[] = [];
    for (let seed = 1; seed <= 8; seed++) {
      const dir = tempDir();
      const file = path.join(dir, 'smalltown.sqlite');
      const bytes = fs.readFileSync(original);
      const rng = new Rng(seed);
      const at = Math.floor(size / 2) - 8192 + Math.floor(rng.next() * 4096);
      for (let i = 0; i < 16 * 1024 && at + i < size; i++) bytes[at + i] = Math.floor(rng.next() * 256);
      fs.writeFileSync(file, bytes);
      const before = digest(file);
      const error = await startTestTown({ dataDir: dir }).then(
        async (t) => {
          await t.close();
          return null;
        },
        (e: Error) => e,
      );
      expect(digest(file)).toBe(before);
      if (error) refused.push(error.message);
    }
    console.log(`chaos: ${refused.length}/8 damaged copies refused; first reason: ${refused[0]}`);
    expect(refused).toHaveLength(8);
    for (const m of refused) expect(m).toMatch(/smalltown\.sqlite: (is damaged \(PRAGMA quick_check|is not a readable SQLite file)/);
  }, 120_000);
});
