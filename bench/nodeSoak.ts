// The runtime soak and smoke (issue: runs on the Node.js people have).
// - Soak (`npm run bench -- chaos`, or `npx tsx bench/nodeSoak.ts soak [minutes]`): `npm start`'s server
//   on this Node with --expose-gc and a forced full collection every second (bench/forceGc.mjs), a
//   spectator watching and an operator pausing, resuming, changing speed, whispering, interviewing and
//   injecting events, for 10 minutes. Reports whether it crashed, RSS at start and end, the patches the
//   spectator saw and the longest gap between two, and how often the clock was held for minds.
// - Smoke (`npx tsx bench/nodeSoak.ts smoke --node /path/to/node [minutes]`): the same server on another
//   Node binary: start, two minutes with a spectator, /healthz, SIGTERM, restart, resumed with its
//   clock and log carried on.
import { performance } from 'node:perf_hooks';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../server/src/protocol/state';
import { exited, startServerProcess, stopChild, type ServerChild } from '../tests/childServer';
import { tempDir } from '../tests/helpers';
import { clonePersonas } from './fixtures';
import { joinSpectators, processUsage, type Spectator } from './load';

const TOKEN = 'soak-operator';
const AGENTS = 10;

interface Health {
  ok: boolean;
  node: string;
  gameMs: number;
  eventSeq: number;
  holds: string[];
  paused: boolean;
}

async function health(server: ServerChild): Promise<Health> {
  return (await (await fetch(`${server.url}/healthz`)).json()) as Health;
}

function serverEnv(dataDir: string): Record<string, string> {
  return { PERSONAS_DIR: clonePersonas(AGENTS), START_TIME: '2026-02-13T07:00', DATA_DIR: dataDir, OPERATOR_TOKEN: TOKEN, CLOCK_RATE: '600' };
}

/** The operator's round of actions, one every few seconds, in turn. */
function operatorActions(operator: Room<unknown, TownState>): Array<() => void> {
  // clonePersonas names the shipped personas' copies by their sorted place: arthur-0 … yumi-9.
  const agents = ['arthur-0', 'claire-2', 'isabella-4', 'kenji-5', 'yumi-9'];
  let n = 0;
  return [
    () => operator.send('control', { op: 'speed', rate: [60, 600, 3600][n++ % 3] }),
    () => operator.send('whisper', { agentId: agents[n++ % agents.length], text: `Soak note ${n}: the bakery opens early tomorrow.` }),
    () => operator.send('interview', { requestId: `soak-${n++}`, agentId: agents[n % agents.length], question: 'What are you doing today?' }),
    () => operator.send('control', { op: 'pause' }),
    () => operator.send('control', { op: 'resume' }),
    () => operator.send('inject', { text: `A street musician plays by the fountain (${n++}).` }),
  ];
}

export interface SoakResult {
  crashed: boolean;
  exitCode: number | null;
  node: string;
  minutes: number;
  rssStartMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  patches: number;
  maxPatchGapMs: number;
  patchGapsOver1s: number;
  heldSamples: number;
  samples: number;
  gameMinutes: number;
  operatorActions: number;
  /** /healthz's clock and log position at the end (before the stop). */
  lastGameMs: number;
  lastEventSeq: number;
}

/** Runs the town for `minutes` with a spectator and an operator; `gc` forces a collection every second. */
export async function soak(options: { minutes: number; gc: boolean; node?: string; dataDir?: string }): Promise<SoakResult> {
  const dataDir = options.dataDir ?? tempDir('smalltown-soak-');
  const nodeArgs = options.gc ? ['--expose-gc', '--import', new URL('./forceGc.mjs', import.meta.url).pathname] : [];
  const server = await startServerProcess(serverEnv(dataDir), { node: options.node, nodeArgs });
  const pid = server.process.pid!;
  let crashed = false;
  server.process.once('exit', () => (crashed = true));
  const [spectator] = (await joinSpectators(server.url, 1)) as [Spectator];
  const operator = await new Client(server.url).join<TownState>('town', { token: TOKEN }, TownState);
  operator.onMessage('*', () => undefined);
  const actions = operatorActions(operator);
  const start = performance.now();
  const first = await health(server);
  const rssStartMb = processUsage(pid).rssMb;
  let rssMaxMb = rssStartMb;
  let patchGapsOver1s = 0;
  let lastPatches = 0;
  let held = 0;
  let samples = 0;
  let done = 0;
  const untilMs = options.minutes * 60_000;
  while (!crashed && performance.now() - start < untilMs) {
    await new Promise((r) => setTimeout(r, 1000));
    if (crashed) break;
    // A second with no patch while the clock runs is a held tick (patches come at 10 Hz).
    if (spectator.patches === lastPatches) patchGapsOver1s++;
    lastPatches = spectator.patches;
    rssMaxMb = Math.max(rssMaxMb, processUsage(pid).rssMb);
    if (samples % 5 === 0) {
      actions[done % actions.length]!();
      done++;
    }
    const h = await health(server).catch(() => null);
    if (h && h.holds.length > 0) held++;
    samples++;
  }
  const last = crashed ? null : await health(server);
  const rssEndMb = crashed ? 0 : processUsage(pid).rssMb;
  const result: SoakResult = {
    crashed,
    exitCode: server.process.exitCode,
    node: first.node,
    minutes: (performance.now() - start) / 60_000,
    rssStartMb,
    rssEndMb,
    rssMaxMb,
    patches: spectator.patches,
    maxPatchGapMs: spectator.maxGapMs,
    patchGapsOver1s,
    heldSamples: held,
    samples,
    gameMinutes: last ? (last.gameMs - first.gameMs) / 60_000 : 0,
    operatorActions: done,
    lastGameMs: last?.gameMs ?? 0,
    lastEventSeq: last?.eventSeq ?? 0,
  };
  if (!crashed) {
    await Promise.all([spectator.room.leave(), operator.leave()]);
    await stopChild(server);
  } else {
    console.log(server.output.join('').slice(-3000));
  }
  return result;
}

export interface SmokeResult {
  node: string;
  ranMinutes: number;
  crashed: boolean;
  stopped: boolean;
  resumed: boolean;
  clockCarriedOn: boolean;
  logCarriedOn: boolean;
}

/** Start, `minutes` with a spectator, /healthz, SIGTERM, restart, resume: on the given Node binary. */
export async function smoke(options: { node?: string; minutes: number }): Promise<SmokeResult> {
  const dataDir = tempDir('smalltown-smoke-');
  const ran = await soak({ minutes: options.minutes, gc: false, node: options.node, dataDir });
  // soak() stopped it with SIGTERM; now the restart.
  const again = await startServerProcess(serverEnv(dataDir), { node: options.node });
  const h = await health(again);
  const resumed = /agents on .*, resumed/.test(again.output.join(''));
  const result: SmokeResult = {
    node: h.node,
    ranMinutes: ran.minutes,
    crashed: ran.crashed,
    stopped: !ran.crashed,
    resumed,
    clockCarriedOn: h.gameMs >= ran.lastGameMs,
    logCarriedOn: h.eventSeq >= ran.lastEventSeq,
  };
  await stopChild(again);
  await exited(again.process);
  return result;
}

export async function benchNodeSoak(): Promise<Record<string, number>> {
  const minutes = Number(process.env.BENCH_GC_SOAK_MINUTES ?? 10);
  if (!(minutes > 0)) return {};
  const r = await soak({ minutes, gc: true });
  console.log(`  forced-GC soak on Node ${r.node}: ${JSON.stringify(r)}`);
  return {
    'chaos.gc_soak.crashed': r.crashed ? 1 : 0,
    'chaos.gc_soak.minutes': r.minutes,
    'chaos.gc_soak.rss_start_mb': r.rssStartMb,
    'chaos.gc_soak.rss_end_mb': r.rssEndMb,
    'chaos.gc_soak.rss_max_mb': r.rssMaxMb,
    'chaos.gc_soak.max_patch_gap_ms': r.maxPatchGapMs,
    'chaos.gc_soak.seconds_without_patch': r.patchGapsOver1s,
    'chaos.gc_soak.held_share': r.samples ? r.heldSamples / r.samples : 0,
    'chaos.gc_soak.game_minutes': r.gameMinutes,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [mode = 'soak', ...rest] = process.argv.slice(2);
  const nodeAt = rest.indexOf('--node');
  const node = nodeAt >= 0 ? rest[nodeAt + 1] : undefined;
  const minutes = Number(rest.find((a, i) => /^\d+(\.\d+)?$/.test(a) && rest[i - 1] !== '--node') ?? (mode === 'smoke' ? 2 : 10));
  const run = mode === 'smoke' ? smoke({ node, minutes }) : soak({ minutes, gc: true, node });
  run.then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit('crashed' in r && r.crashed ? 1 : 0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
