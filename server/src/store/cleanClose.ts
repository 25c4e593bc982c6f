// The clean-close stamp: `<world file>.clean-close`, written beside the file after a clean close (the WAL
// checkpointed into it and the connection closed), holding the file's size, modification time (ns), inode
// and a hash of its bytes as that close left them. A writable open that finds the stamp and the file still
// as stamped (not written, replaced or grown since, its bytes the same, and no WAL left over) skips
// `PRAGMA quick_check`, which walks every b-tree (1.4–3.1 s on a 140 MB world); anything else (a kill, a
// crash, a copy, a backup, bytes written into the file while it was closed, even with its modification
// time put back) gets the full check. Hashing reads the file once, sequentially (SHA-1 through OpenSSL,
// well under the check's time). The stamp is removed before the first write of an open, so a process
// killed later leaves none; a start that fails closes without one (WorldDb.close).
import fs from 'node:fs';

import { createHash } from 'node:crypto';

interface Stamp {
  size: string;
  mtimeNs: string;
  ino: string;
  sha1: string;
}

const stampFile = (file: string) => `${file}.clean-close`;

function statOf(file: string): Omit<Stamp, 'sha1'> {
  const st = fs.statSync(file, { bigint: true });
  return { size: String(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) };
}

/** SHA-1 of the file's bytes, read a megabyte at a time. */
function contentHash(file: string): string {
  const hash = createHash('sha1');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function stampOf(file: string): Stamp {
  return { ...statOf(file), sha1: contentHash(file) };
}

/** After a clean close: the file as it is now. Written atomically (a kill mid-way leaves no stamp). */
export function stampCleanClose(file: string): void {
  const tmp = `${stampFile(file)}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(stampOf(file)));
  fs.renameSync(tmp, stampFile(file));
}

/** Whether the file was closed cleanly and has not changed since: its stamp matches, and no WAL holds frames. */
export function closedCleanly(file: string): boolean {
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile(file), 'utf8')) as Partial<Stamp>;
    const wal = `${file}-wal`;
    if (fs.existsSync(wal) && fs.statSync(wal).size > 0) return false;
    const now = statOf(file);
    if (stamp.size !== now.size || stamp.mtimeNs !== now.mtimeNs || stamp.ino !== now.ino) return false;
    return typeof stamp.sha1 === 'string' && stamp.sha1 === contentHash(file);
  } catch {
    return false;
  }
}

/** Before an open writes: a later kill must find no stamp. */
export function clearCleanClose(file: string): void {
  fs.rmSync(stampFile(file), { force: true });
}
