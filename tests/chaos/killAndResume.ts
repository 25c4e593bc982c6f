// Kill -9 at random moments, many times, and prove nothing committed is lost. The server runs as
// `npm start` does, in a process of its own; this process watches its world file through a read-only
// SQLite connection of its own, the way any other program would. A row that connection has read is
// committed (it is in the file or its WAL, not in the dying process's memory), so "lost" is measured
// against rows seen from outside before each kill, not against what the server says about itself.
// After each restart every row ever seen must be there unchanged, the event log gap-free, the file's
// integrity check clean, and the clock no earlier than the last walk or action logged before the kill,
// nor than the game time /healthz showed before it (one history: the town never goes back to a time a
// viewer has seen pass, and the log's game time never goes back across the restart).
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { Rng } from '../../server/src/sim/rng';
import { isSimEvent } from '../../server/src/history/fold';
import type { LoggedEvent } from '../../server/src/protocol/events';
import { killChild, startServerProcess, stopChild, type ServerChild } from '../childServer';

export interface KillRunOptions {
  /** How many times the server is killed; one more start follows the last kill, then a clean stop. */
  kills: number;
  seed: number;
  dataDir: string;
  /** The server's settings (the mind, the personas, the clock); DATA_DIR and WORLD are set here. */
  env: Record<string, string>;
  /**
   * Where the kills land: this share of them at a moment drawn from `startMs` after the spawn (mostly
   * inside the start-up or resume, however long that takes), the others at a moment drawn from
   * `servingMs` after the server said it was serving.
   */
  moments: { duringStart: number; startMs: [number, number]; servingMs: [number, number] };
  /** How often the file is read from outside while the server runs. */
  pollMs?: number;
  /** Kill the first process as soon as this says so instead (e.g. while a new world seeds its memories). */
  killFirstWhen?: () => boolean;
  /** How long the last process lives once ready, before its clean stop. */
  lastRunMs?: number;
  /** And how many events it logs after its run.started or run.resumed before it stops (2 unless told; 0 at night). */
  lastRunEvents?: number;
  onCycle?: (cycle: KillCycle) => void;
}

export interface KillCycle {
  index: number;
  /** ms from spawn to the kill. */
  killedAfterMs: number;
  /** Whether the process had said it was ready (the town open and serving) when it was killed. */
  wasReady: boolean;
  /** ms from spawn to ready of a process started after a kill; null for the first or one killed before it was ready. */
  resumeMs: number | null;
  /** Of that, ms from the server's first log line (Node and its modules loaded) to the world resumed, by its log's clock. */
  openMs: number | null;
  /** The latest game time /healthz showed before the kill (null: it never answered). */
  shownGameMs: number | null;
  /** What had been seen committed when it died. */
  seenSeq: number;
  seenMemories: number;
}

export interface RestartCheck {
  /** Rows seen committed before a kill and missing or changed after the restart (events, memories, vectors). */
  lost: string[];
  eventCount: number;
  lastSeq: number;
  gapFree: boolean;
  integrity: string;
  /** memory.created events whose memory is not in the file. */
  dangling: number;
  /** Game ms by which the resumed clock stood before the last walk or action seen before the kill (0: none). */
  rolledBackGameMs: number;
  /** Game ms by which the resumed clock stood before the game time shown before the kill (0: none). */
  behindShownGameMs: number;
  /** Game ms by which the log's time went back at the restart: events before its run.resumed later than it (0: none). */
  logWentBackGameMs: number;
  /** Events logged after that resume, so far. */
  eventsAfterResume: number;
  /** `run.started` events: a world is started once, however often its first start is cut short. */
  worldStarts: number;
  /** A resident's seed memory (one written at the world's start) held more than once. */
  seedsTwice: number;
}

export interface KillRunResult {
  cycles: KillCycle[];
  checks: RestartCheck[];
  /** Distinct rows lost over the whole run. */
  lostRows: string[];
  resumeMs: number[];
  /** The same restarts from the server's first log line (the part Node's start-up does not take). */
  openMs: number[];
  /** ms from spawn to started (resumed, or a new world's first start done, seen in /healthz) of each checked restart. */
  startedMs: number[];
  /** Rows seen committed, in all. */
  seenEvents: number;
  seenMemories: number;
  /** Events the town logged after its last resume (it went on living). */
  eventsAfterLastResume: number;
  /** The last process's exit code after SIGTERM (0: it saved and stopped). */
  exitCode: number | null;
  finalOutput: string;
}

const WORLD = 'chaos';
const LAST_RUN_GIVE_UP_MS = 30_000;

/** The file as another process sees it: a read-only connection, each read its own short transaction. */
export class OutsideReader {
  readonly events = new Map<number, string>();
  readonly memories = new Map<number, string>();
  /** Game time of every walk, action, plan or talk seen, by seq. */
  private readonly simEventGameMs = new Map<number, number>();
  lastSeenSeq = 0;
  /** The seq of the latest run.started or run.resumed seen: where the latest process began its run. */
  lastRunStartSeq = 0;
  private lastMemoryId = 0;
  private db: Database.Database | null = null;

  constructor(private readonly file: string) {}

  /** Reads what is new since the last poll. Quietly does nothing while the file does not exist yet. */
  poll(): void {
    const db = this.open();
    if (!db) return;
    try {
      for (const e of db
        .prepare('SELECT seq, game_ms AS gameMs, kind, agent_id AS agentId, data FROM events WHERE seq > ? ORDER BY seq')
        .all(this.lastSeenSeq) as Row[]) {
        this.events.set(e.seq, eventKey(e));
        this.lastSeenSeq = e.seq;
        if (e.kind === 'run.started' || e.kind === 'run.resumed') this.lastRunStartSeq = e.seq;
        if (isSimEvent({ seq: e.seq, gameMs: e.gameMs, kind: e.kind, agentId: e.agentId, data: JSON.parse(e.data) } as LoggedEvent))
          this.simEventGameMs.set(e.seq, e.gameMs);
      }
      for (const m of db.prepare(MEMORY_ROWS).all(this.lastMemoryId) as MemoryRow[]) {
        this.memories.set(m.id, memoryKey(m));
        this.lastMemoryId = m.id;
      }
    } catch (error) {
      // A file whose schema is not written yet (the first start was killed in its first milliseconds).
      if (!/no such table/.test(String(error))) throw error;
    }
  }

  /**
   * Every row seen so far checked against the file as it is now; `restartedAfterSeq`: the last seq seen before
   * the kill; `shownGameMs`: the game time shown before it.
   */
  check(restartedAfterSeq = this.lastSeenSeq, shownGameMs: number | null = null): RestartCheck {
    const db = this.open();
    if (!db) throw new Error(`${this.file}: no world file after a restart`);
    const lost: string[] = [];
    const events = new Map((db.prepare('SELECT seq, game_ms AS gameMs, kind, agent_id AS agentId, data FROM events').all() as Row[]).map((e) => [e.seq, e]));
    for (const [seq, key] of this.events) if (events.get(seq) === undefined || eventKey(events.get(seq)!) !== key) lost.push(`event #${seq}`);
    const memories = new Map((db.prepare(MEMORY_ROWS).all(0) as MemoryRow[]).map((m) => [m.id, memoryKey(m)]));
    const vectors = new Set(db.prepare('SELECT m.id FROM memories m JOIN memory_vectors v ON v.id = m.vector_id').pluck().all() as number[]);
    for (const [id, key] of this.memories) {
      if (memories.get(id) !== key) lost.push(`memory ${id}`);
      else if (!vectors.has(id)) lost.push(`memory ${id}'s vector`);
    }
    const { n, lo, hi } = db.prepare('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM events').get() as {
      n: number;
      lo: number | null;
      hi: number | null;
    };
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    let dangling = 0;
    let worldStarts = 0;
    for (const e of events.values()) {
      if (e.kind === 'memory.created' && !memories.has((JSON.parse(e.data) as { id: number }).id)) dangling++;
      if (e.kind === 'run.started') worldStarts++;
    }
    // The restart's run.resumed: the clock it resumed at.
    const resumed = [...events.values()].filter((e) => e.kind === 'run.resumed' && e.seq > restartedAfterSeq).sort((a, b) => a.seq - b.seq)[0];
    let lastSimEventGameMs = -Infinity;
    for (const [seq, gameMs] of this.simEventGameMs) if (seq <= restartedAfterSeq) lastSimEventGameMs = Math.max(lastSimEventGameMs, gameMs);
    const rolledBackGameMs = resumed && Number.isFinite(lastSimEventGameMs) ? Math.max(0, lastSimEventGameMs - resumed.gameMs) : 0;
    const behindShownGameMs = resumed && shownGameMs !== null ? Math.max(0, shownGameMs - resumed.gameMs) : 0;
    let loggedBefore = -Infinity;
    if (resumed) for (const e of events.values()) if (e.seq < resumed.seq) loggedBefore = Math.max(loggedBefore, e.gameMs);
    const logWentBackGameMs = resumed && Number.isFinite(loggedBefore) ? Math.max(0, loggedBefore - resumed.gameMs) : 0;
    const seeds = 'SELECT agent_id, description FROM memories WHERE created_ms = (SELECT min(created_ms) FROM memories)';
    const seedsTwice = db.prepare(`SELECT count(*) FROM (${seeds} GROUP BY agent_id, description HAVING count(*) > 1)`).pluck().get() as number;
    // Where the restart's run began: its run.resumed, or run.started where every earlier start was killed before it started.
    const began = resumed ?? [...events.values()].find((e) => e.kind === 'run.started' && e.seq > restartedAfterSeq);
    const eventsAfterResume = began ? (hi ?? 0) - began.seq : 0;
    return {
      lost,
      eventCount: n,
      lastSeq: hi ?? 0,
      gapFree: n === (hi ?? 0) && (n === 0 || lo === 1),
      integrity,
      dangling,
      rolledBackGameMs,
      behindShownGameMs,
      logWentBackGameMs,
      eventsAfterResume,
      worldStarts,
      seedsTwice,
    };
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }

  private open(): Database.Database | null {
    if (this.db) return this.db;
    if (!fs.existsSync(this.file)) return null;
    this.db = new Database(this.file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    sqliteVec.load(this.db);
    return this.db;
  }
}

interface Row {
  seq: number;
  gameMs: number;
  kind: string;
  agentId: string | null;
  data: string;
}
interface MemoryRow {
  id: number;
  agent_id: string;
  kind: string;
  description: string;
  created_ms: number;
  importance: number;
  evidence: string;
}
// Everything a memory is but its last access, which retrieval moves.
const MEMORY_ROWS = 'SELECT id, agent_id, kind, description, created_ms, importance, evidence FROM memories WHERE id > ? ORDER BY id';
const eventKey = (e: Row) => JSON.stringify([e.gameMs, e.kind, e.agentId, e.data]);
const memoryKey = (m: MemoryRow) => JSON.stringify([m.agent_id, m.kind, m.description, m.created_ms, m.importance, m.evidence]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The game time the server shows (/healthz, read from the live clock the room broadcasts), or null. */
async function shownGameMs(url: string): Promise<number | null> {
  try {
    const health = (await (await fetch(`${url}/healthz`)).json()) as { gameMs?: number };
    return typeof health.gameMs === 'number' ? health.gameMs : null;
  } catch {
    return null;
  }
}

/** From the first line the server logged (its modules loaded, settings read) to "resumed world", by the log's own timestamps. */
function openTimeMs(output: string): number | null {
  const stamp = (line: string | undefined) => (line ? Date.parse(line.slice(0, 24)) : Number.NaN);
  const lines = output.split('\n');
  const ms = stamp(lines.find((l) => /resumed world/.test(l))) - stamp(lines.find((l) => /^\d{4}-\d\d-\d\dT/.test(l)));
  return Number.isFinite(ms) ? ms : null;
}

/** Starts, kills and restarts the server `kills` times, checking the file after every restart; then stops it cleanly. */
export async function killAndResume(o: KillRunOptions): Promise<KillRunResult> {
  const rng = new Rng(o.seed);
  const reader = new OutsideReader(path.join(o.dataDir, `${WORLD}.sqlite`));
  const env = { ...o.env, DATA_DIR: o.dataDir, WORLD };
  const pollMs = o.pollMs ?? 100;
  const cycles: KillCycle[] = [];
  const checks: RestartCheck[] = [];
  const lostRows = new Set<string>();
  const resumeMs: number[] = [];
  const openMs: number[] = [];
  const startedMs: number[] = [];

  /** Whether the town has started: resumed, or a new world's first start done (no 'starting' hold in /healthz). */
  const townStarted = async (child: ServerChild): Promise<boolean> => {
    const health = (await fetch(`${child.url}/healthz`)
      .then((r) => r.json())
      .catch(() => null)) as { holds?: string[] } | null;
    return health !== null && Array.isArray(health.holds) && !health.holds.includes('starting');
  };
  /** The latest game time shown by the process last killed (what its restart must not go back from). */
  let lastShownGameMs: number | null = null;

  /** One process: started, watched (checked once it is ready, after a kill), and ended by `until`. */
  const live = async (restart: boolean, until: (sinceSpawnMs: number, sinceReadyMs: number | null) => boolean) => {
    let proc: ChildProcess | null = null;
    let ready: ServerChild | null = null;
    let failed: Error | null = null;
    const spawned = performance.now();
    void startServerProcess(env, { started: (p) => (proc = p) }).then(
      (child) => (ready = child),
      (error: Error) => (failed = error),
    );
    let checked = false;
    let shown: number | null = null;
    for (;;) {
      if (failed) throw new Error(`the server stopped by itself: ${(failed as Error).message}`);
      // A new world serves while its first start goes on (the clock held 'starting'): checked once it has started.
      if (ready && restart && !checked && (await townStarted(ready as ServerChild))) {
        checked = true;
        startedMs.push(performance.now() - spawned);
        const check = reader.check(reader.lastSeenSeq, lastShownGameMs);
        checks.push(check);
        for (const row of check.lost) lostRows.add(row);
      }
      // After a kill the file is first opened by the server, whose start recovers its WAL: the reader
      // waits until it is ready (so rows a restart writes before it is ready are seen only after it).
      if (ready || !restart) reader.poll();
      if (ready) {
        const t = await shownGameMs((ready as ServerChild).url);
        if (t !== null) shown = Math.max(shown ?? t, t);
      }
      const now = performance.now();
      if (until(now - spawned, ready ? now - (ready as ServerChild).readyAt : null)) break;
      await sleep(pollMs);
    }
    const child = ready as ServerChild | null;
    return {
      proc: proc! as ChildProcess,
      child,
      shown,
      spawned,
      resumedMs: child && restart ? child.readyAt - child.spawnedAt : null,
      openMs: child && restart ? openTimeMs(child.output.join('')) : null,
    };
  };

  for (let index = 0; index < o.kills; index++) {
    const { duringStart, startMs, servingMs } = o.moments;
    const inStart = rng.next() < duringStart;
    const [lo, hi] = inStart ? startMs : servingMs;
    const killAt = lo + rng.next() * (hi - lo);
    const killFirst = index === 0 ? o.killFirstWhen : undefined;
    // The last look from outside is the loop's last poll; then the kill: what the reader saw must survive.
    const run = await live(index > 0, (sinceSpawnMs, sinceReadyMs) => {
      if (killFirst) return killFirst();
      return inStart ? sinceSpawnMs >= killAt : sinceReadyMs !== null && sinceReadyMs >= killAt;
    });
    reader.close();
    const killedAfterMs = performance.now() - run.spawned;
    await killChild(run.proc);
    // A process killed before it served showed nothing: the one before it showed the latest time.
    if (run.shown !== null) lastShownGameMs = run.shown;
    if (run.resumedMs !== null) resumeMs.push(run.resumedMs);
    if (run.openMs !== null) openMs.push(run.openMs);
    const cycle: KillCycle = {
      index,
      killedAfterMs,
      wasReady: run.child !== null,
      resumeMs: run.resumedMs,
      openMs: run.openMs,
      shownGameMs: run.shown,
      seenSeq: reader.lastSeenSeq,
      seenMemories: reader.memories.size,
    };
    cycles.push(cycle);
    o.onCycle?.(cycle);
  }

  // One more start: it resumes, is checked, lives a little, and stops cleanly (SIGTERM saves and exits 0).
  const seqAtLastKill = reader.lastSeenSeq;
  // It lives until its run has begun and logged something (a new world's first start may take a while on a loaded
  // machine), or until LAST_RUN_GIVE_UP_MS, when the caller's check of eventsAfterLastResume fails with its output.
  const lived = () => reader.lastRunStartSeq > seqAtLastKill && reader.lastSeenSeq >= reader.lastRunStartSeq + (o.lastRunEvents ?? 2);
  const last = await live(true, (_sinceSpawnMs, sinceReadyMs) => {
    if (sinceReadyMs === null) return false;
    return (sinceReadyMs >= (o.lastRunMs ?? 1500) && lived()) || sinceReadyMs >= LAST_RUN_GIVE_UP_MS;
  });
  if (last.resumedMs !== null) resumeMs.push(last.resumedMs);
  if (last.openMs !== null) openMs.push(last.openMs);
  await stopChild(last.child ?? undefined);
  const finalCheck = reader.check(seqAtLastKill, lastShownGameMs);
  checks.push(finalCheck);
  for (const row of finalCheck.lost) lostRows.add(row);
  reader.close();
  return {
    cycles,
    checks,
    lostRows: [...lostRows],
    resumeMs,
    openMs,
    startedMs,
    seenEvents: reader.events.size,
    seenMemories: reader.memories.size,
    eventsAfterLastResume: finalCheck.eventsAfterResume,
    exitCode: last.proc.exitCode,
    finalOutput: last.child?.output.join('') ?? '',
  };
}
