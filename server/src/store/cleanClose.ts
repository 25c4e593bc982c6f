// The clean-close stamp: `<world file>.clean-close`, written beside the file after a clean close (the WAL
// checkpointed into it and the connection closed), holding the file's size, modification time (ns) and
// inode as that close left them. A writable open that finds the stamp and the file still as stamped (not
// written, replaced or grown since, and no WAL left over) skips `PRAGMA quick_check`, which reads every
// page (1.4–3.1 s on a 140 MB world); anything else (a kill, a crash, a copy, a backup, bytes written into
// the file while it was closed) gets the full check. The stamp is removed before the first write of an
// open, so a process killed later leaves none.
import fs from 'node:fs';

interface Stamp {
  size: string;
  mtimeNs: string;
  ino: string;
}

const stampFile = (file: string) => `${file}.clean-close`;

function stampOf(file: string): Stamp {
  const st = fs.statSync(file, { bigint: true });
  return { size: String(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) };
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
    const now = stampOf(file);
    return stamp.size === now.size && stamp.mtimeNs === now.mtimeNs && stamp.ino === now.ino;
  } catch {
    return false;
  }
}

/** Before an open writes: a later kill must find no stamp. */
export function clearCleanClose(file: string): void {
  fs.rmSync(stampFile(file), { force: true });
}
