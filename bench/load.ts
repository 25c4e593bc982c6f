// Load benchmark (`npm run bench -- load`): 200 spectators on one 25-agent town at 1x. The server is
// `npm start`'s entry point in a process of its own, so its CPU and memory are its own (read from
// /proc); the spectators are @colyseus/sdk clients in this process, each counting the patches it
// decodes. Measured with 1 spectator, then with 200: the patch rate each client sees (the room patches
// at 10 Hz), the longest gap between two patches, server CPU (% of one core) and RSS.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../server/src/protocol/state';
import { startServerProcess, stopChild, type ServerChild } from '../tests/childServer';
import { tempDir } from '../tests/helpers';
import { clonePersonas } from './fixtures';
import { percentile } from './sim';

const AGENTS = 25;
const SPECTATORS = 200;
const WINDOW_MS = 20_000;
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time (user + system) a process has used, in ms, and its resident memory in MB, from /proc. */
export function processUsage(pid: number): { cpuMs: number; rssMb: number } {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuMs, rssMb: rssKb / 1024 };
}

export interface Spectator {
  room: Room<unknown, TownState>;
  patches: number;
  lastAt: number;
  maxGapMs: number;
}

export async function joinSpectators(url: string, count: number): Promise<Spectator[]> {
  const out: Spectator[] = [];
  // Twenty at a time, as a crowd arriving: the matchmaker and the first full state are the costly part.
  for (let i = 0; i < count; i += 20) {
    const rooms = await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => new Client(url).join<TownState>('town', {}, TownState)));
    for (const room of rooms) {
      const s: Spectator = { room, patches: 0, lastAt: performance.now(), maxGapMs: 0 };
      for (const type of ['welcome', 'news']) room.onMessage(type, () => undefined);
      room.onStateChange(() => {
        const now = performance.now();
        s.patches++;
        s.maxGapMs = Math.max(s.maxGapMs, now - s.lastAt);
        s.lastAt = now;
      });
      out.push(s);
    }
  }
  return out;
}

interface Window {
  patchRateMean: number;
  patchRateMin: number;
  maxGapP99Ms: number;
  serverCpuPct: number;
  serverRssMb: number;
  clientCpuPct: number;
}

async function measure(server: ServerChild, count: number): Promise<Window> {
  const pid = server.process.pid!;
  const spectators = await joinSpectators(server.url, count);
  // Let the joins settle (each new spectator gets the full state once), then count from zero.
  await new Promise((r) => setTimeout(r, 3000));
  const start = performance.now();
  for (const s of spectators) Object.assign(s, { patches: 0, lastAt: start, maxGapMs: 0 });
  const before = processUsage(pid);
  const ownBefore = process.cpuUsage();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const elapsedMs = performance.now() - start;
  const after = processUsage(pid);
  const own = process.cpuUsage(ownBefore);
  const rates = spectators.map((s) => s.patches / (elapsedMs / 1000));
  const window: Window = {
    patchRateMean: rates.reduce((a, b) => a + b, 0) / rates.length,
    patchRateMin: Math.min(...rates),
    maxGapP99Ms: percentile(
      spectators.map((s) => s.maxGapMs),
      99,
    ),
    serverCpuPct: ((after.cpuMs - before.cpuMs) / elapsedMs) * 100,
    serverRssMb: after.rssMb,
    clientCpuPct: ((own.user + own.system) / 1000 / elapsedMs) * 100,
  };
  await Promise.all(spectators.map((s) => s.room.leave()));
  return window;
}

export async function benchLoad(): Promise<Record<string, number>> {
  const server = await startServerProcess({ PERSONAS_DIR: clonePersonas(AGENTS), START_TIME: '2026-02-13T08:00', DATA_DIR: tempDir('smalltown-load-') });
  const out: Record<string, number> = {};
  try {
    const idle = processUsage(server.process.pid!);
    for (const count of [1, SPECTATORS]) {
      const w = await measure(server, count);
      console.log(`  ${count} spectator(s): ${JSON.stringify(w)}`);
      const key = `spectators_${count}`;
      out[`load.cpu_pct.${key}`] = w.serverCpuPct;
      out[`load.rss_mb.${key}`] = w.serverRssMb;
      out[`load.patches_per_s.${key}`] = w.patchRateMean;
      out[`load.patches_per_s_min.${key}`] = w.patchRateMin;
      out[`load.patch_gap_p99_ms.${key}`] = w.maxGapP99Ms;
      out[`load.client_cpu_pct.${key}`] = w.clientCpuPct;
    }
    out['load.rss_mb.start'] = idle.rssMb;
  } finally {
    await stopChild(server);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchLoad().then((r) => console.table(r));
}
