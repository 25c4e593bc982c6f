// The soak: the generated town of 1,000 served as `npm start` serves it (a server process, offline mind,
// CLOCK_POLICY=wait), run from midnight for a game day (SOAK_GAME_HOURS) at 1× (RATE below). Every game hour
// it samples the server's resident memory, V8 heap, the column cache, CPU and world file size (with its
// WAL), and RSS every wall second; it reports each one's slope (RSS's after the first day when 12 game hours
// follow it, and RSS day over day at the same hours), the column cache's bytes per memory, the file per
// agent-day a week-long run ends with and each table's size, and draws RSS and file size over the run in
// docs/soak.svg. CPU at 1× is the CPU one game hour took over the real minute a game hour lasts at 1×. Run alone with `npx tsx bench/soak.ts`
// (SOAK_GAME_HOURS=72 or more gives RSS's trend over whole days after the first; 168, a game week, to quote it: over 72 hours a low first
// half of the window nearly doubled it; SOAK_WALL_MINUTES bounds the wall time; SOAK_KEEP_FILE=path keeps
// a copy of the world file).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { generatedTown, startServerProcess, type ServerProcess } from './bigTown';

const AGENTS = 1000;
const HOUR_MS = 3_600_000;
const START = '2026-02-13T00:00';
/**
 * 1× by default (SOAK_CLOCK_RATE to change it). At 300× (30 game seconds a tick, the perception turn) the
 * town wrote a third of the memories it writes at 1×: 0.39 an agent-hour against 1.14 (9:30–11:00,
 * BENCHMARKS.md); likely its cognition falls behind (the clock waits only past 30 game minutes of lag) and
 * waiting observations are dropped past PENDING_OBSERVATIONS_LIMIT. So a faster soak understates a day's writes.
 */
const RATE = Number(process.env.SOAK_CLOCK_RATE ?? 60);
/** Where the plot and the samples go (SOAK_DOCS: a path without extension). */
const DOCS = process.env.SOAK_DOCS ?? 'docs/soak';
/** Samples from this game hour on are after every resident's first day was planned (waking hours end by 8:00). */
const SETTLED_FROM_HOUR = 8;
/** A wall-time bound on the whole soak (an hour a game day), so a stuck run cannot hold the shared machine. */
const WALL_LIMIT_MS_PER_GAME_HOUR = 2.5 * 60_000;
/** Snapshots newer than this are all kept (SNAPSHOT_THIN_AFTER_GAME_HOURS, 6 by default): a window replaced, not added to, each day. */
const SNAPSHOT_WINDOW_GAME_HOURS = 6;
/** The run the per-agent-day file figure is for: a week, as the user leaves the town running. */
const WEEK_DAYS = 7;
/** Memories an agent-day of a quiet 1× soak of the town of 1,000: the rate the file target is read at. */
const REFERENCE_MEMORIES_PER_AGENT_DAY = 561;
/** Bytes vec0 keeps for a vector beyond its float32 values: its rowid in the chunk (the validity bit left out). */
const VEC0_ROWID_BYTES = 8;

export interface SoakSample {
  gameHour: number;
  wallS: number;
  rssMb: number;
  heapMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** The memory stream's column cache (/healthz memoryCache): MB, bytes, agents and distinct vectors held. */
  cacheMb: number;
  cacheBytes: number;
  cacheAgents: number;
  cacheVectors: number;
  /** Node's ArrayBuffers (typed arrays and the cache's WebAssembly memory), MB. */
  arrayBuffersMb: number;
  cpuMs: number;
  fileKb: number;
  memories: number;
}

function fileKb(dataDir: string): number {
  let bytes = 0;
  for (const f of fs.readdirSync(dataDir)) if (/\.sqlite(-wal)?$/.test(f)) bytes += fs.statSync(path.join(dataDir, f)).size;
  return bytes / 1024;
}

/**
 * A /healthz read, tried again (up to 10 times, a second apart) when the connection fails: a 48-hour soak
 * on the shared machine lost both its runs at 22:00 to one ECONNRESET, with the server still running.
 */
async function patiently<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 10) throw error;
      console.warn(`soak: /healthz failed (${error instanceof Error ? error.message : String(error)}); trying again`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/**
 * A copy of the world file as of one read transaction (VACUUM INTO: compacted, so its dbstat is a little
 * smaller than the live file's). SQLite's online backup restarts whenever the running town writes, so it never ends.
 */
function keepCopy(file: string, dest: string): void {
  const db = new Database(file, { readonly: true });
  try {
    sqliteVec.load(db); // a file before schema 3 has vec0 tables
    db.prepare('VACUUM INTO ?').run(dest);
  } finally {
    db.close();
  }
}

/** The mean MB of [hour, MB] pairs. */
const meanOf = (trace: Array<[number, number]>): number => trace.reduce((a, [, mb]) => a + mb, 0) / trace.length;

/**
 * RSS's growth over the last game day, % a day: the mean over the run's last two game hours against the same two
 * hours of the clock a day earlier (NaN for a run under 26 hours). RSS follows the day (the heap fills while
 * everyone is about and is collected at night), so a least-squares slope over one day from midnight counts the
 * day's shape as growth; the same hours a day apart do not.
 */
export function rssDayOverDayPct(trace: Array<[number, number]>, lastHour: number): number {
  if (lastHour < 26) return NaN;
  const window = (from: number) => trace.filter(([h]) => h >= from && h < from + 2);
  const before = meanOf(window(lastHour - 26));
  return (100 * (meanOf(window(lastHour - 2)) - before)) / before;
}

/**
 * The trend of a quantity that follows the day, in its units a game hour: least squares of y on game time with the
 * hour of the clock taken out (each sample less the mean of its hour of the clock, time likewise; a linear trend
 * plus one level per hour of the day, the levels fitted too). RSS rises while everyone is about and drops when the
 * heap is collected at night; a plain least-squares line counts that shape as growth (a sawtooth of height A that
 * starts each day gives A/N² a day over N whole days: A/4 over the two days after the first of a 72-hour soak),
 * this does not. NaN unless some hour of the clock was sampled on two days.
 */
export function trendWithoutDayShape(trace: Array<[number, number]>): number {
  const byHour = new Map<number, Array<[number, number]>>();
  for (const p of trace) {
    const h = Math.floor(((p[0] % 24) + 24) % 24);
    const list = byHour.get(h);
    if (list) list.push(p);
    else byHour.set(h, [p]);
  }
  let num = 0;
  let den = 0;
  let repeated = false;
  for (const points of byHour.values()) {
    repeated ||= Math.max(...points.map(([x]) => x)) - Math.min(...points.map(([x]) => x)) > 12;
    const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
    const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
    for (const [x, y] of points) {
      num += (x - mx) * (y - my);
      den += (x - mx) ** 2;
    }
  }
  return repeated ? num / den : NaN;
}

/** Least-squares slope of y over x. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function sample(server: ServerProcess, gameHour: number, t0: number): Promise<SoakSample> {
  const h = (await patiently(async () => (await fetch(`${server.url}/healthz`)).json())) as {
    memory: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
    memoryCache: { mb: number; bytes: number; agents: number; vectors: number };
  };
  return {
    gameHour,
    wallS: (performance.now() - t0) / 1000,
    rssMb: server.rssMb(),
    heapMb: h.memory.heapUsed,
    heapTotalMb: h.memory.heapTotal,
    externalMb: h.memory.external,
    cacheMb: h.memoryCache.mb,
    cacheBytes: h.memoryCache.bytes,
    cacheAgents: h.memoryCache.agents,
    cacheVectors: h.memoryCache.vectors,
    arrayBuffersMb: h.memory.arrayBuffers,
    cpuMs: server.cpuMs(),
    fileKb: fileKb(server.dataDir),
    memories: countMemories(path.join(server.dataDir, 'smalltown.sqlite')).count,
  };
}

/** The world's memories and its embedding dimension, read through a read-only connection. */
function countMemories(file: string): { count: number; dimension: number } {
  const db = new Database(file, { readonly: true });
  try {
    const count = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
    const dimension = Number(db.prepare("SELECT value FROM meta WHERE key = 'embedding_dimension'").pluck().get());
    return { count, dimension };
  } finally {
    db.close();
  }
}

/** Each table's and index's bytes in the world file (SQLite's dbstat), largest first. */
export function tableKb(file: string): Array<{ name: string; kb: number }> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    return rows.map((r) => ({ name: r.name, kb: r.bytes / 1024 }));
  } finally {
    db.close();
  }
}

/** The memories' tables and indexes (schema 4's rows and texts, older files' table, shared vectors, vec0), and the log's. */
const MEMORY_TABLES = /^(memories|memory_|vec_memories)/;
const EVENT_TABLE = /^(events|event_rows)$/;
const EVENT_INDEXES = /^(events_|event_rows_)/;
/** Bytes of an event's row beside its payload (seq, game time, kind, agent, the record's header and cell): about, for shares. */
const EVENT_ROW_BYTES = 16;

/** The log's events and their bytes, and how much of each is `memory.created`'s. */
export function eventTally(file: string): { all: number; made: number; bytes: number; madeBytes: number } {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT count(*) AS "all", coalesce(sum(kind = 'memory.created'), 0) AS made, coalesce(sum(length(data) + ${EVENT_ROW_BYTES}), 0) AS bytes,
                coalesce(sum(CASE WHEN kind = 'memory.created' THEN length(data) + ${EVENT_ROW_BYTES} END), 0) AS madeBytes FROM events`,
      )
      .get() as { all: number; made: number; bytes: number; madeBytes: number };
  } finally {
    db.close();
  }
}

type Tables = Array<{ name: string; kb: number }>;
type EventTally = ReturnType<typeof eventTally>;

/**
 * The week's file per agent-day at a reference rate of memories (REFERENCE_MEMORIES_PER_AGENT_DAY): the storage decides
 * the bytes a memory costs, the load decides how many memories a day makes (a loaded machine drops observations).
 * Tied to memories: the memories' tables and indexes, and memory.created's share of the log's table (by bytes) and of
 * its indexes (by count); the rest of the days' growth (walks, actions, plans, conversations, free pages) is counted
 * as it was, per agent-day, and the window of snapshots once in the week.
 */
export function fileAtReferenceRate(o: {
  startTables: Tables;
  tables: Tables;
  startEvents: EventTally;
  endEvents: EventTally;
  growthKb: number;
  windowKb: number;
  days: number;
  memoriesMade: number;
}): { bytesPerMemory: number; otherKbPerAgentDay: number; kbPerAgentDay: number } {
  const kbOf = (ts: Tables, re: RegExp) => ts.filter((t) => re.test(t.name)).reduce((a, t) => a + t.kb, 0);
  const grew = (re: RegExp) => kbOf(o.tables, re) - kbOf(o.startTables, re);
  const byteShare = (o.endEvents.madeBytes - o.startEvents.madeBytes) / Math.max(1, o.endEvents.bytes - o.startEvents.bytes);
  const countShare = (o.endEvents.made - o.startEvents.made) / Math.max(1, o.endEvents.all - o.startEvents.all);
  const memoryKb = grew(MEMORY_TABLES) + grew(EVENT_TABLE) * byteShare + grew(EVENT_INDEXES) * countShare;
  const otherKbPerAgentDay = (o.growthKb - o.windowKb - memoryKb) / o.days / AGENTS;
  const kbPerMemory = memoryKb / o.memoriesMade;
  return {
    bytesPerMemory: 1024 * kbPerMemory,
    otherKbPerAgentDay,
    kbPerAgentDay: kbPerMemory * REFERENCE_MEMORIES_PER_AGENT_DAY + otherKbPerAgentDay + o.windowKb / WEEK_DAYS / AGENTS,
  };
}

/** KB of vec0's vector chunks (allocated a chunk of 32 vectors per agent at a time, so ahead of the memories that fill them). */
function vectorChunkKb(tables: Array<{ name: string; kb: number }>): number {
  return tables.filter((t) => /^vec_memories_(vector_chunks\d+|chunks)$/.test(t.name)).reduce((a, t) => a + t.kb, 0);
}

/** KB of the snapshots taken in the last `hours` game hours before `untilGameMs`: the window kept whole. */
export function snapshotWindowKb(file: string, untilGameMs: number, hours: number): number {
  const db = new Database(file, { readonly: true });
  try {
    const bytes = db
      .prepare('SELECT coalesce(sum(length(state)), 0) FROM snapshots WHERE game_ms > ?')
      .pluck()
      .get(untilGameMs - hours * HOUR_MS) as number;
    return bytes / 1024;
  } finally {
    db.close();
  }
}

/**
 * The world file a week-long run would end with, per agent-day, from what `days` game days added to it
 * (KB, whole town): in a file with vec0 (before schema 3), the growth with vec0's chunks replaced by the
 * vectors the new memories fill (a first day's memories land in chunks the start file already holds, so its
 * growth alone leaves them out; a later day pays for its chunks a chunk at a time); shared vectors are
 * written as they come, so the growth holds them (`vec0VectorsMade` 0). And the window of snapshots kept
 * whole counted once in the week instead of once in these days (each day's window replaces the last one).
 */
export function weekKbPerAgentDay(o: {
  growthKb: number;
  vectorChunkGrowthKb: number;
  /** Memories made, each with its own vec0 vector; 0 where vectors are shared rows. */
  vec0VectorsMade: number;
  dimension: number;
  windowKb: number;
  days: number;
  agents: number;
}): number {
  const vectorsKb = (o.vec0VectorsMade * (o.dimension * 4 + VEC0_ROWID_BYTES)) / 1024;
  const perDay = (o.growthKb - o.vectorChunkGrowthKb + vectorsKb - o.windowKb) / o.days;
  return (perDay + o.windowKb / WEEK_DAYS) / o.agents;
}

/** RSS (MB, left axis) and the world file (MB, right axis) over the game hours, as an SVG line chart. */
export function soakSvg(samples: SoakSample[], title: string): string {
  const W = 720;
  const H = 360;
  const L = 60;
  const R = 660;
  const T = 40;
  const B = 310;
  const hours = Math.max(24, ...samples.map((s) => s.gameHour));
  const rssMax = Math.ceil(Math.max(...samples.map((s) => s.rssMb)) / 100) * 100;
  const fileMax = Math.ceil(Math.max(...samples.map((s) => s.fileKb / 1024)) / 50) * 50;
  const x = (h: number) => L + ((R - L) * h) / hours;
  const y = (v: number, max: number) => B - ((B - T) * v) / max;
  const line = (values: number[], max: number) => samples.map((s, i) => `${x(s.gameHour).toFixed(1)},${y(values[i], max).toFixed(1)}`).join(' ');
  const ticks: string[] = [];
  // An hour label every 3, 6 or 12 game hours, or a whole number of days: the first that leaves 40 px between labels.
  const fits = (h: number) => ((R - L) * h) / hours >= 40;
  const step = [3, 6, 12].find(fits) ?? 24 * Math.ceil((40 * hours) / (R - L) / 24);
  for (let h = 0; h <= hours; h += step) ticks.push(`<text x="${x(h)}" y="${B + 18}" text-anchor="middle">${h}:00</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = (rssMax * i) / 4;
    const f = (fileMax * i) / 4;
    ticks.push(`<text x="${L - 6}" y="${y(v, rssMax) + 4}" text-anchor="end" fill="#1f6fb2">${v}</text>`);
    ticks.push(`<text x="${R + 6}" y="${y(f, fileMax) + 4}" fill="#b2541f">${f}</text>`);
    ticks.push(`<line x1="${L}" x2="${R}" y1="${y(v, rssMax)}" y2="${y(v, rssMax)}" stroke="#ddd"/>`);
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${title}</text>`,
    ...ticks,
    `<line x1="${L}" x2="${R}" y1="${B}" y2="${B}" stroke="#333"/>`,
    `<polyline fill="none" stroke="#1f6fb2" stroke-width="2" points="${line(
      samples.map((s) => s.rssMb),
      rssMax,
    )}"/>`,
    `<polyline fill="none" stroke="#b2541f" stroke-width="2" stroke-dasharray="6 3" points="${line(
      samples.map((s) => s.fileKb / 1024),
      fileMax,
    )}"/>`,
    `<text x="${L}" y="${H - 10}" fill="#1f6fb2">— server RSS, MB (left)</text>`,
    `<text x="${R}" y="${H - 10}" text-anchor="end" fill="#b2541f">- - world file with its WAL, MB (right)</text>`,
    `<text x="${W / 2}" y="${B + 34}" text-anchor="middle">game hour</text>`,
    '</svg>',
    '',
  ].join('\n');
}

export async function benchSoak(gameHours = Number(process.env.SOAK_GAME_HOURS ?? 24)): Promise<Record<string, number>> {
  const town = generatedTown(AGENTS);
  const server = await startServerProcess(town, { START_TIME: START, CLOCK_RATE: String(RATE) });
  const wallLimitMs = Number(process.env.SOAK_WALL_MINUTES ?? 0) * 60_000 || Math.max(45 * 60_000, gameHours * WALL_LIMIT_MS_PER_GAME_HOUR);
  try {
    const file = path.join(server.dataDir, 'smalltown.sqlite');
    // A new world seeds its residents after /healthz first answers (held 'starting'): the start file is what that leaves.
    while ((await patiently(() => server.health())).holds.includes('starting')) await new Promise((r) => setTimeout(r, 500));
    const t0 = performance.now();
    const startMs = (await server.health()).gameMs;
    const samples: SoakSample[] = [await sample(server, 0, t0)];
    const startTables = tableKb(file);
    const startEvents = eventTally(file);
    /** [game hours since the start, RSS MB], every wall second. */
    const rssTrace: Array<[number, number]> = [];
    let lastRssAt = 0;
    let next = 1;
    while (next <= gameHours) {
      if (performance.now() - t0 > wallLimitMs) {
        console.warn(`soak: stopped at game hour ${next - 1} after ${wallLimitMs / 60_000} minutes; the figures cover those hours`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
      const gameMs = (await patiently(() => server.health())).gameMs;
      // RSS swings by a hundred MB or more as the heap is collected: read it every wall second, so its slope is not one sample's luck.
      if (performance.now() - lastRssAt >= 1000) (rssTrace.push([(gameMs - startMs) / HOUR_MS, server.rssMb()]), (lastRssAt = performance.now()));
      if (gameMs < startMs + next * HOUR_MS) continue;
      samples.push(await sample(server, next, t0));
      const s = samples.at(-1)!;
      process.stdout.write(
        `  ${next}:00 ${s.wallS.toFixed(0)} s rss ${s.rssMb.toFixed(0)} MB heap ${s.heapMb} MB ` +
          `cache ${s.cacheMb} MB (${s.cacheAgents} agents, ${s.cacheVectors} vectors) buffers ${s.arrayBuffersMb} MB file ${(s.fileKb / 1024).toFixed(1)} MB\n`,
      );
      next += 1;
    }
    const tables = tableKb(file);
    const last = samples.at(-1)!;
    const days = last.gameHour / 24;
    // RSS after the first day (the target's slope) when the run has at least half a day after it (a slope over
    // the hour or two of a 26-hour run is one swing of the heap, scaled to a day), else over the settled part of the day.
    const afterDayOne = last.gameHour >= 24 + 12;
    const settled = samples.filter((s) => s.gameHour >= (afterDayOne ? 24 : SETTLED_FROM_HOUR));
    const hoursOf = (ss: SoakSample[]) => ss.map((s) => s.gameHour);
    const settledFrom = settled[0].gameHour;
    const rssSettled = rssTrace.filter(([h]) => h >= settledFrom);
    const meanRss = rssSettled.reduce((a, [, mb]) => a + mb, 0) / rssSettled.length;
    const rssPlainSlope = slope(
      rssSettled.map(([h]) => h),
      rssSettled.map(([, mb]) => mb),
    );
    // Whole days after the first only, so that every hour of the clock weighs alike.
    const wholeDaysEnd = 24 + 24 * Math.floor((last.gameHour - 24) / 24);
    const trendWindow = rssTrace.filter(([h]) => h >= 24 && h < wholeDaysEnd);
    const rssTrend = afterDayOne && wholeDaysEnd >= 72 ? trendWithoutDayShape(trendWindow) : NaN;
    const meanTrend = Number.isNaN(rssTrend) ? meanRss : meanOf(trendWindow);
    // CPU each game hour took, as a share of the real minute that hour lasts at 1×.
    const cpuPct = samples.slice(1).map((s, i) => (100 * (s.cpuMs - samples[i].cpuMs)) / 60_000);
    fs.mkdirSync(path.dirname(DOCS), { recursive: true });
    const cap = process.env.MEMORY_CACHE_MB ? `, MEMORY_CACHE_MB=${process.env.MEMORY_CACHE_MB}` : '';
    const title = `Soak: ${AGENTS} agents, ${gameHours} game hours from midnight (offline mind, ${RATE / 60}×${cap})`;
    fs.writeFileSync(`${DOCS}.svg`, soakSvg(samples, title));
    fs.writeFileSync(`${DOCS}.json`, `${JSON.stringify({ samples, tables, rssTrace: rssTrace.filter((_, i) => i % 10 === 0) })}\n`);
    const { dimension } = countMemories(file);
    const growthKb = last.fileKb - samples[0].fileKb;
    const vectorChunkGrowthKb = vectorChunkKb(tables) - vectorChunkKb(startTables);
    const memoriesMade = last.memories - samples[0].memories;
    const vec0VectorsMade = tables.some((t) => t.name === 'vec_memories_rowids') ? memoriesMade : 0;
    const windowKb = snapshotWindowKb(file, startMs + last.gameHour * HOUR_MS, SNAPSHOT_WINDOW_GAME_HOURS);
    const result: Record<string, number> = {
      'soak.world_kb_per_agent_day': weekKbPerAgentDay({ growthKb, vectorChunkGrowthKb, vec0VectorsMade, dimension, windowKb, days, agents: AGENTS }),
      // What the soak's own days added, with their vectors and their whole window of snapshots.
      'soak.world_kb_per_agent_day_soaked': weekKbPerAgentDay({ growthKb, vectorChunkGrowthKb, vec0VectorsMade, dimension, windowKb: 0, days, agents: AGENTS }),
      'soak.world_kb_growth_per_agent_day': growthKb / AGENTS / days,
      'soak.snapshot_window_kb_per_agent': windowKb / AGENTS,
      'soak.vector_chunk_growth_kb_per_agent': vectorChunkGrowthKb / AGENTS,
      'soak.memories_per_agent_day': memoriesMade / AGENTS / days,
      'soak.world_kb_start_per_agent': samples[0].fileKb / AGENTS,
      // RSS's trend after the first day, % of its mean per game day: RSS read every wall second, the day's shape
      // taken out (trendWithoutDayShape). A run of under two whole days after the first has too few repeated hours
      // for that, and gives the plain slope below.
      'soak.rss_slope_pct_per_day': (100 * 24 * (Number.isNaN(rssTrend) ? rssPlainSlope : rssTrend)) / meanTrend,
      // Least squares over RSS read every wall second from the settled hour on, the day's shape included: % of its
      // mean per game day.
      'soak.rss_slope_pct_per_day_with_day_shape': (100 * 24 * rssPlainSlope) / meanRss,
      // The same over the hourly samples only: one sample's luck shows in it.
      'soak.rss_slope_pct_per_day_hourly':
        (100 *
          24 *
          slope(
            hoursOf(settled),
            settled.map((s) => s.rssMb),
          )) /
        (settled.reduce((a, s) => a + s.rssMb, 0) / settled.length),
      'soak.rss_slope_from_hour': settledFrom,
      'soak.rss_day_over_day_pct': rssDayOverDayPct(rssTrace, last.gameHour),
      // RSS's growth over the window the slope is taken on: the mean of its last two game hours less that of its first two.
      'soak.rss_mb_growth': meanOf(rssSettled.filter(([h]) => h >= last.gameHour - 2)) - meanOf(rssSettled.filter(([h]) => h < settledFrom + 2)),
      'soak.rss_mb_mean_settled': meanRss,
      'soak.rss_mb_max': Math.max(...samples.map((s) => s.rssMb), ...rssTrace.map(([, mb]) => mb)),
      // The column cache: bytes per memory with every agent cached (its pool holds each distinct vector once), and its growth.
      'soak.cache_bytes_per_memory': last.cacheBytes / last.memories,
      'soak.cache_vectors_per_memory': last.cacheVectors / last.memories,
      'soak.cache_mb_slope_per_day':
        24 *
        slope(
          hoursOf(settled),
          settled.map((s) => s.cacheMb),
        ),
      'soak.array_buffers_mb_max': Math.max(...samples.map((s) => s.arrayBuffersMb)),
      'soak.heap_slope_mb_per_day':
        24 *
        slope(
          hoursOf(settled),
          settled.map((s) => s.heapMb),
        ),
      'soak.heap_mb_max': Math.max(...samples.map((s) => s.heapMb)),
      'soak.file_slope_kb_per_agent_day':
        (24 *
          slope(
            hoursOf(samples),
            samples.map((s) => s.fileKb),
          )) /
        AGENTS,
      [`soak.cpu_pct_max.agents_${AGENTS}`]: Math.max(...cpuPct),
      [`soak.cpu_pct_mean.agents_${AGENTS}`]: cpuPct.reduce((a, b) => a + b, 0) / cpuPct.length,
      'soak.wall_s': last.wallS,
      'soak.game_hours': last.gameHour,
    };
    for (const t of tables.slice(0, 6)) result[`soak.table_kb_per_agent.${t.name}`] = t.kb / AGENTS;
    const atReference = fileAtReferenceRate({ startTables, tables, startEvents, endEvents: eventTally(file), growthKb, windowKb, days, memoriesMade });
    result['soak.world_bytes_per_memory'] = atReference.bytesPerMemory;
    result['soak.world_other_kb_per_agent_day'] = atReference.otherKbPerAgentDay;
    result[`soak.world_kb_per_agent_day_at_${REFERENCE_MEMORIES_PER_AGENT_DAY}_memories`] = atReference.kbPerAgentDay;
    for (const t of tables.slice(0, 10)) result[`soak.table_bytes_per_memory.${t.name}`] = (1024 * t.kb) / last.memories;
    // SOAK_KEEP_FILE: a consistent copy of the world file (SQLite's online backup) for reading afterwards (the data dir is removed).
    if (process.env.SOAK_KEEP_FILE) keepCopy(file, process.env.SOAK_KEEP_FILE);
    return result;
  } catch (error) {
    console.error(`soak: the server (${server.exited() ?? 'running'}) wrote:\n${server.stderrTail()}`);
    throw error;
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSoak().then((r) => console.table(r));
}
