// Issue 45: a full disk, then SIGTERM, exited with code 1: the close's last writes (the WAL checkpoint, the
// clean-close stamp beside the file) threw. The stop now saves what it can and closes the file; what was
// committed stays, and the next start resumes from it with the full check. While held, viewers are shown the time
// last committed, not the step the disk refused: the restart never resumes before what they saw.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestTown, waitFor } from '../helpers';

describe('stopping on a full disk', () => {
  it('closes without an error when the disk takes no more, and the world resumes from what was committed', async () => {
    const first = await startTestTown({ rate: 1200 });
    const file = path.join(first.dataDir, 'smalltown.sqlite');
    const db = first.town.db.db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    await waitFor('the town held for storage', () => first.town.holds.has('storage'), 20_000);
    // Nor does the folder take a new file: the stamp's temporary file cannot be written.
    fs.mkdirSync(`${file}.clean-close.tmp`);
    const committed = first.town.db.events.lastSeq();
    // What spectators were shown while the town was held: the restart must not resume before it.
    const shownGameMs = first.town.shownGameMs;
    expect(shownGameMs).toBeLessThan(first.town.gameMs);
    await expect(first.close()).resolves.toBeUndefined();
    expect(fs.existsSync(`${file}.clean-close`)).toBe(false);
    fs.rmdirSync(`${file}.clean-close.tmp`);
    const second = await startTestTown({ dataDir: first.dataDir });
    try {
      expect(second.town.resumed).toBe(true);
      expect(second.town.db.openCheck).toBe('quick_check');
      expect(second.town.db.events.lastSeq()).toBeGreaterThanOrEqual(committed);
      expect(second.town.gameMs - shownGameMs).toBeGreaterThanOrEqual(0);
    } finally {
      await second.close();
    }
  }, 60_000);
});
