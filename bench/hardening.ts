// Issue 21's chaos figures, part of `npm run bench -- chaos` (or alone: `npx tsx bench/hardening.ts`).
// 1. A full disk, over seeds: a live town whose world file may not grow by one more page (PRAGMA
//    max_page_count: SQLite's own SQLITE_FULL), then may again. Recovered = the town paused with the
//    reason in /healthz while the API kept answering, then went on by itself, its event log gap-free.
// 2. What an anonymous client gets from the matchmaking routes: 20 creates and 20 joinOrCreates of the
//    town, then 500 replay joins it never follows. The most town rooms and replay rooms that existed
//    for it at any moment (the town's own room counts: ≤ 1 town, ≤ 1 replay).
import { performance } from 'node:perf_hooks';
import { matchMaker } from '@colyseus/core';
import { startTown, type RunningTown } from '../server/src/app';
import { replayRoomCount } from '../server/src/rooms/admission';
import { tempDir, waitFor } from '../tests/helpers';
import { checkWorldFile, openWorldDb } from '../server/src/store/WorldDb';
import { clearCleanClose } from '../server/src/store/cleanClose';
import { generatedTown } from './bigTown';

const SEEDS = [1, 2, 3, 4, 5];

interface Health {
  gameMs: number;
  eventSeq: number;
  holds: string[];
  storage: 'ok' | { error: string };
}

async function startQuiet(seed: number): Promise<RunningTown> {
  return startTown({
    port: 0,
    host: '127.0.0.1',
    dataDir: tempDir('smalltown-hardening-'),
    seed,
    rate: 1200,
    idlePauseMinutes: 0,
    backupCron: 'off',
    idleCheckCron: 'off',
    housekeepingCron: 'off',
    logLevel: 'silent',
  });
}

/** 1 when the town paused with the reason, kept answering, and resumed by itself with a gap-free log; else 0. */
async function diskFullOnce(seed: number): Promise<{ recovered: number; pausedMs: number; resumedMs: number }> {
  const server = await startQuiet(seed);
  try {
    const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as Health;
    await waitFor('events', async () => (await health()).eventSeq > 50, 30_000);
    const db = server.town.db.db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const t0 = performance.now();
    const faulted = await waitFor('the fault', async () => ((await health()).storage !== 'ok' ? await health() : null), 30_000);
    const pausedMs = performance.now() - t0;
    const frozen = faulted.gameMs;
    const served = (await fetch(`${server.url}/api/town`)).status === 200;
    db.pragma('max_page_count = 1073741823');
    const t1 = performance.now();
    const after = await waitFor(
      'the recovery',
      async () => {
        const h = await health();
        return h.storage === 'ok' && h.gameMs > frozen ? h : null;
      },
      60_000,
    );
    const resumedMs = performance.now() - t1;
    const { n, first, last } = db.prepare('SELECT count(*) AS n, min(seq) AS first, max(seq) AS last FROM events').get() as Record<string, number>;
    const ok = served && faulted.holds.includes('storage') && !after.holds.includes('storage') && last! - first! + 1 === n;
    return { recovered: ok ? 1 : 0, pausedMs, resumedMs };
  } finally {
    await server.close();
  }
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

async function roomsForAnonymousClient(): Promise<{ town: number; replay: number; refused: number }> {
  const server = await startQuiet(1);
  try {
    let town = 0;
    let replay = 0;
    let refused = 0;
    const count = async () => {
      town = Math.max(town, (await matchMaker.query({ name: 'town' })).length);
      replay = Math.max(replay, replayRoomCount());
    };
    for (let i = 0; i < 20; i++) {
      for (const method of ['create', 'joinOrCreate']) if ((await post(`${server.url}/matchmake/${method}/town`, { world: 'smalltown' })) >= 400) refused++;
      await count();
    }
    for (let i = 0; i < 500; i++) {
      if ((await post(`${server.url}/matchmake/join/replay`, {})) >= 400) refused++;
      await count();
    }
    return { town, replay, refused };
  } finally {
    await server.close();
  }
}

export async function benchHardening(): Promise<Record<string, number>> {
  const runs = [];
  for (const seed of SEEDS) runs.push(await diskFullOnce(seed));
  const rooms = await roomsForAnonymousClient();
  console.log(
    `  disk full: recovered ${runs.filter((r) => r.recovered).length}/${runs.length} seeds; ` +
      `ms to pause ${runs.map((r) => r.pausedMs.toFixed(0)).join(' ')}; ms to resume ${runs.map((r) => r.resumedMs.toFixed(0)).join(' ')}`,
  );
  console.log(`  anonymous client: at most ${rooms.town} town room(s) and ${rooms.replay} replay room(s) existed; ${rooms.refused} of 540 requests refused`);
  return {
    'chaos.disk_full_recovered': Math.min(...runs.map((r) => r.recovered)),
    'chaos.disk_full_seeds': runs.length,
    'chaos.disk_full_resume_max_ms': Math.max(...runs.map((r) => r.resumedMs)),
    'chaos.rooms_per_anonymous_client.town': rooms.town,
    'chaos.rooms_per_anonymous_client.replay': rooms.replay,
  };
}

/**
 * What the open checks (ours? PRAGMA quick_check) add to a start: on the world file of a 1,000-agent
 * town run for a game hour, measured `runs` times (the file in the page cache after the first): the
 * check alone, and the whole open of the world file after a clean close (its stamp matches: no
 * quick_check) and after a kill (no stamp: the full check).
 */
export async function benchOpenCheck(runs = 5): Promise<Record<string, number>> {
  const town = generatedTown(1000);
  const server = await startTown({
    port: 0,
    host: '127.0.0.1',
    dataDir: tempDir('smalltown-hardening-'),
    mapFile: town.mapFile,
    personasDir: town.personasDir,
    seed: 1,
    idlePauseMinutes: 0,
    backupCron: 'off',
    idleCheckCron: 'off',
    housekeepingCron: 'off',
    logLevel: 'silent',
  });
  await server.town.commands.step(60, 'bench');
  const file = server.town.db.file;
  const embedding = { model: server.town.embedder.model, dimension: server.town.embedder.dimension };
  await server.close();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    checkWorldFile(file, { quickCheck: true });
    ms.push(performance.now() - t0);
  }
  const openMs = (afterKill: boolean) => {
    const out: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (afterKill) clearCleanClose(file);
      const t0 = performance.now();
      const db = openWorldDb(file, embedding);
      out.push(performance.now() - t0);
      if (db.openCheck !== (afterKill ? 'quick_check' : 'clean close')) throw new Error(`open check ${db.openCheck}, expected the other`);
      db.close();
    }
    return out;
  };
  const clean = openMs(false);
  const killed = openMs(true);
  const { size } = await import('node:fs').then((fs) => fs.statSync(file));
  const shown = (xs: number[]) => xs.map((m) => m.toFixed(0)).join(' ');
  console.log(`  open check on a 1,000-agent world file (${(size / 1e6).toFixed(1)} MB): ${shown(ms)} ms`);
  console.log(`  whole open of it: after a clean close ${shown(clean)} ms; after a kill ${shown(killed)} ms`);
  return {
    'chaos.open_check_ms.agents_1000': Math.max(...ms),
    'chaos.open_check_file_mb.agents_1000': size / 1e6,
    'chaos.open_ms.world_140mb.after_clean_close': Math.max(...clean),
    'chaos.open_ms.world_140mb.after_kill': Math.max(...killed),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  (process.argv[2] === 'open-check' ? benchOpenCheck() : benchHardening()).then(
    (r) => {
      console.table(r);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
