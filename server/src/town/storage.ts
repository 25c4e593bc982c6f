// Storage faults as a state, not a crash: a write the disk refuses (SQLITE_FULL, an I/O error) pauses the
// town with the reason, and the next write that succeeds resumes it. What is committed stays committed;
// what failed to commit stays queued (TownLog keeps the batch) and is written once the disk takes it.

/** SQLite result codes that say the disk, not the data, is the problem (extended codes start with these). */
const STORAGE_CODES = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_PROTOCOL'];

/** Whether an error is the disk refusing a write (better-sqlite3's SqliteError carries the code). */
export function isStorageFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_CODES.some((c) => code === c || code.startsWith(`${c}_`));
}

export interface StorageProblem {
  /** The SQLite code and message, e.g. "SQLITE_FULL: database or disk is full". */
  error: string;
  /** Wall ms of the first failed write. */
  sinceWallMs: number;
  /** Failed writes since then. */
  failedWrites: number;
}

/** Whether the town's file takes writes; told of each write's outcome by the loop. */
export class StorageState {
  private current: StorageProblem | null = null;

  constructor(
    private readonly now: () => number,
    /** Told once when writes start failing (with the problem) and once when they succeed again (null). */
    private readonly onChange: (problem: StorageProblem | null, previous: StorageProblem | null) => void = () => undefined,
  ) {}

  get problem(): StorageProblem | null {
    return this.current;
  }

  failed(error: unknown): void {
    if (this.current) {
      this.current.failedWrites++;
      return;
    }
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    this.current = { error: `${String(code)}: ${message}`, sinceWallMs: this.now(), failedWrites: 1 };
    this.onChange(this.current, null);
  }

  succeeded(): void {
    if (!this.current) return;
    const previous = this.current;
    this.current = null;
    this.onChange(null, previous);
  }
}
