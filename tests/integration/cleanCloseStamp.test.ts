// Issue 45: corruption is always caught. The clean-close stamp let an open skip PRAGMA quick_check when the
// file's size, modification time and inode were as a clean close left them; bytes written into the file in
// place with its modification time put back skipped the check for ever (and a failed start's close wrote a
// fresh stamp). The stamp now covers the file's bytes, a damaged file is named with the backup to restore,
// and a start that fails leaves no stamp.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestTown, tempDir } from '../helpers';
import { backupWorld } from '../../server/src/jobs/jobs';
import { generateTown } from '../../scripts/generateTown';
import { Rng } from '../../server/src/sim/rng';

const stampFile = (file: string) => `${file}.clean-close`;

/** Bytes written into the middle of the file, then the stamp's size, time and inode set to the file's: as if its time were put back. */
function damageKeepingTime(file: string, seed: number): void {
  const stamp = JSON.parse(fs.readFileSync(stampFile(file), 'utf8')) as Record<string, string>;
  const size = fs.statSync(file).size;
  const rng = new Rng(seed);
  const bytes = Buffer.from(Array.from({ length: 16 * 1024 }, () => Math.floor(rng.next() * 256)));
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, bytes, 0, bytes.length, Math.floor(size / 2) - 8192);
  fs.closeSync(fd);
  const st = fs.statSync(file, { bigint: true });
  fs.writeFileSync(stampFile(file), JSON.stringify({ ...stamp, size: String(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) }));
}

describe('the clean-close stamp and damaged world files', () => {
  it('catches damage written in place after a clean close with the time kept, every start, naming the backup to restore', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'smalltown.sqlite');
    const first = await startTestTown({ dataDir, rate: 600 });
    await first.town.commands.step(20, 'test');
    const backup = await backupWorld(first.config, first.town, Date.UTC(2026, 0, 2));
    await first.close();
    expect(fs.existsSync(stampFile(file))).toBe(true);
    damageKeepingTime(file, 5);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await startTestTown({ dataDir }).then(
        async (t) => {
          await t.close();
          return null;
        },
        (e: Error) => e,
      );
      expect(error?.message, `start ${attempt + 1}`).toMatch(/smalltown\.sqlite: (is damaged|is not a readable SQLite file)/);
      expect(error?.message).toContain(`restore the newest backup the town keeps: ${backup}`);
    }
  }, 120_000);

  it('a start that fails after the open leaves no stamp: the next start checks the whole file', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'smalltown.sqlite');
    const first = await startTestTown({ dataDir, rate: 600 });
    await first.close();
    expect(fs.existsSync(stampFile(file))).toBe(true);
    // Another town's map and people: refused after the file is opened (town/binding.ts).
    const other = generateTown({ agents: 2, outDir: path.join(tempDir('smalltown-other-'), 'other'), seed: 3 });
    await expect(startTestTown({ dataDir, mapFile: other.mapFile, personasDir: other.personasDir })).rejects.toThrow(/another town/);
    expect(fs.existsSync(stampFile(file))).toBe(false);
    const again = await startTestTown({ dataDir });
    expect(again.town.db.openCheck).toBe('quick_check');
    await again.close();
  }, 120_000);
});
