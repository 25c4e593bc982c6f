// Benchmarks of the sim core (`Simulation.step` alone, not the served tick): step time with every agent
// walking, pathfinding across the town, and the bytes of state patches a spectator receives; then step time in
// a generated town of 1,000 people. Run alone with `npx tsx bench/sim.ts` (prints, writes nothing).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Encoder } from '@colyseus/schema';
import { loadTownMap } from '../server/src/world/map';
import { loadPersonas } from '../server/src/world/persona';
import { toResident } from '../server/src/town/residents';
import { Simulation } from '../server/src/sim/Simulation';
import { Rng } from '../server/src/sim/rng';
import { GAME_MS_PER_DAY, GAME_MS_PER_HOUR } from '../server/src/protocol/time';
import { loadConfig } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { OfflineMind } from '../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../server/src/agent/context';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { createLogger } from '../server/src/town/logger';
import { generatedTown } from './bigTown';
import type { Input, ResidentSpec, StepResult } from '../server/src/sim/types';
import type { DayPlan, PlannedAction } from '../server/src/protocol/plan';
import { TownState } from '../server/src/protocol/state';
import { syncAgentState, syncClockState } from '../server/src/rooms/stateSync';
import { asAgentId, type TownMap } from '../server/src/world/types';
import { GridPathfinder } from '../server/src/world/pathfinding';
import { findGroup, type Settings } from './groups';

const TICK_HZ = 10;
const RATE = 60; // game ms per real ms: the default speed
const STEP_GAME_MS = (1000 / TICK_HZ) * RATE;
const START = Date.UTC(2026, 1, 13, 9, 0);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** N residents cloned from the personas, awake all day, each with a plan that sends it across town every 5 minutes. */
function walkers(map: TownMap, count: number): { residents: ResidentSpec[]; plans: Input[] } {
  const personas = loadPersonas('personas', map);
  const arenas = map.arenas.map((a) => a.address);
  const residents: ResidentSpec[] = [];
  const plans: Input[] = [];
  const rng = new Rng(7);
  for (let i = 0; i < count; i++) {
    const base = toResident(personas[i % personas.length], map);
    const id = asAgentId(`${base.id}-${i}`);
    residents.push({ ...base, id, name: `${base.name} ${i}`, wakeMinute: 0, sleepMinute: 1439 });
    const actions: PlannedAction[] = [];
    for (let m = 0; m < 1435; m += 5)
      actions.push({ startMinute: m, durationMinutes: 5, description: 'walking about', emoji: '🚶', address: rng.pick(arenas) });
    const plan: DayPlan = { day: Math.floor(START / GAME_MS_PER_DAY), broadStrokes: [], hourBlocks: [], actions };
    plans.push({ kind: 'plan', agentId: id, plan });
  }
  return { residents, plans };
}

export function benchStep(map: TownMap, agents: number, steps = 1000): { p50: number; p99: number; cpuP99: number; bytesPerSecond: number } {
  const { residents, plans } = walkers(map, agents);
  const sim = new Simulation(map, residents, { seed: 1, startGameMs: START });
  const state = new TownState();
  state.mapWidth = map.widthTiles;
  let gameMs = START;
  let first = sim.step(gameMs, plans);
  for (const r of residents) syncAgentState(state, sim, r.id);
  const encoder = new Encoder(state);
  encoder.encodeAll();
  encoder.discardChanges();
  // Warm up: plans take effect, paths are found and cached, the JIT settles.
  // Operations finish at once with no result: the benchmark measures the sim, not the minds.
  const settle = (inputs: Input[]) =>
    inputs.concat(
      first.requests.map((r): Input =>
        r.kind === 'converse' ? { kind: 'conversationEnd', conversationId: r.conversationId } : { kind: 'done', agentId: r.agentId },
      ),
    );
  let pending: Input[] = settle([]);
  for (let i = 0; i < 100; i++) {
    gameMs += STEP_GAME_MS;
    first = sim.step(gameMs, pending);
    pending = settle([]);
    for (const id of first.changed) syncAgentState(state, sim, id);
    syncClockState(state, { gameMs, rate: RATE, paused: false, holds: [] });
    encoder.encode();
    encoder.discardChanges();
  }
  const times: number[] = [];
  // CPU time too: other processes on a shared machine stretch wall time far more than CPU time.
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < steps; i++) {
    gameMs += STEP_GAME_MS;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    first = sim.step(gameMs, pending);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    pending = settle([]);
    for (const id of first.changed) syncAgentState(state, sim, id);
    syncClockState(state, { gameMs, rate: RATE, paused: false, holds: [] });
    // One patch per tick (TownRoom's patch rate equals its tick rate), plus one byte of message framing.
    bytes += encoder.encode().length + 1;
    encoder.discardChanges();
  }
  const walking = sim.agents().filter((a) => a.movement).length;
  if (walking < agents * 0.5) throw new Error(`only ${walking} of ${agents} agents were walking at the end: the benchmark is not measuring walking agents`);
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuP99: percentile(cpu, 99), bytesPerSecond: bytes / (steps / TICK_HZ) };
}

/** `runs` searches across the town; the first 20 warm up and are not counted. */
export function benchPath(map: TownMap, runs = 1020): { p50: number; p99: number; length: number } {
  const finder = new GridPathfinder(map.widthTiles, map.heightTiles, map.collision);
  const w = map.widthTiles;
  // Between the two arenas farthest apart: across the town.
  let best: [number, number] = [0, 0];
  let bestD = -1;
  for (const a of map.arenas)
    for (const b of map.arenas) {
      const d = Math.abs(a.centreTile.x - b.centreTile.x) + Math.abs(a.centreTile.y - b.centreTile.y);
      if (d > bestD) {
        bestD = d;
        best = [a.centreTile.y * w + a.centreTile.x, b.centreTile.y * w + b.centreTile.x];
      }
    }
  const times: number[] = [];
  let length = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const path = finder.findPath(best[0], best[1]);
    times.push(performance.now() - t0);
    if (!path) throw new Error('no path across the town');
    length = path.length;
  }
  return { p50: percentile(times.slice(20), 50), p99: percentile(times.slice(20), 99), length };
}

/** The sim group (bench/groups.ts gives its settings): pathfinding, the core step with walkers, and the generated town's hour. */
export async function benchSim(settings: Settings = findGroup('sim')!.settings!(false)): Promise<Record<string, number>> {
  const map = loadTownMap('maps/town.tmj');
  const out: Record<string, number> = {};
  const path = benchPath(map, Number(settings.pathSearches));
  out['path.p50_ms'] = path.p50;
  out['path.p99_ms'] = path.p99;
  out['path.length_tiles'] = path.length;
  for (const n of String(settings.walkerCounts).split(',').map(Number)) {
    const r = benchStep(map, n, Number(settings.stepsPerTown));
    out[`sim.core_step_p50_ms.agents_${n}`] = r.p50;
    out[`sim.core_step_p99_ms.agents_${n}`] = r.p99;
    out[`net.bytes_per_s.agents_${n}`] = r.bytesPerSecond;
    if (n === 1000) out[`sim.core_step_cpu_p99_ms.agents_${n}`] = r.cpuP99;
  }
  const agents = Number(settings.generatedAgents);
  const generated = await benchGeneratedTown(agents, Number(settings.generatedGameMinutes));
  out[`sim.core_step_p50_ms.generated_${agents}`] = generated.p50;
  // 600 steps or fewer: the slowest, not a p99.
  out[`sim.core_step_max_ms.generated_${agents}`] = generated.max;
  out[`sim.core_step_cpu_max_ms.generated_${agents}`] = generated.cpuMax;
  return out;
}

/**
 * Times every step of the sim from now on (wall ms and CPU ms of the process), calling `after` with each
 * step's result (a spectator's patch, say) outside the timed part.
 */
export function timeSteps(sim: Simulation, after?: (r: StepResult, gameMs: number) => void): { times: number[]; cpu: number[] } {
  const times: number[] = [];
  const cpu: number[] = [];
  const step = sim.step.bind(sim);
  sim.step = (gameMs, inputs) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = step(gameMs, inputs);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    after?.(r, gameMs);
    return r;
  };
  return { times, cpu };
}

/**
 * The sim alone in a generated town of `agents` people (npm run generate:town, seed 1) from 6:30 for
 * `gameMinutes` (an hour: when it wakes, plans and walks to work): 1× steps (6 game s) in lockstep, the offline mind
 * thinking between steps; only the steps are timed.
 */
export async function benchGeneratedTown(agents: number, gameMinutes = 60): Promise<{ p50: number; max: number; cpuMax: number }> {
  const town = generatedTown(agents);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-sim-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', mapFile: town.mapFile, personasDir: town.personasDir, startTime: '2026-02-13T06:30' });
  const t = await Town.open(config, {
    mind: new OfflineMind(),
    embedder: loadOfflineEmbedder(),
    logger: createLogger('silent'),
    runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
  });
  const { times, cpu } = timeSteps(t.sim);
  try {
    await t.loop.runLockstep(t.gameMs + (gameMinutes / 60) * GAME_MS_PER_HOUR, STEP_GAME_MS);
  } finally {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { p50: percentile(times, 50), max: Math.max(...times), cpuMax: Math.max(...cpu) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSim().then((r) => console.table(r));
}
