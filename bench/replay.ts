// Replay benchmarks, on a world recorded in the benchmark itself: 25 agents (the shipped personas,
// cloned), two game days on the offline mind. Seeks are random moments, server side, from request to
// a schema state ready to send; play is one viewer at 600x, ten ticks a second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { OfflineMind } from '../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../server/src/agent/context';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { createLogger } from '../server/src/town/logger';
import { GAME_MS_PER_DAY } from '../server/src/protocol/time';
import { Encoder } from '@colyseus/schema';
import { TownState } from '../server/src/protocol/state';
import { syncAgentState } from '../server/src/rooms/stateSync';
import { openReplay, type ReplayContext } from '../server/src/replay/open';
import { systemClock } from '../server/src/core/wallClock';
import { Rng } from '../server/src/sim/rng';
import { clonePersonas } from './fixtures';
import { percentile } from './sim';

const AGENTS = 25;
const DAYS = 2;
/** Game ms per real ms at 600× (60 is 1×). */
const PLAY_RATE_600X = 600 * 60;

async function recordWorld(snapshotEveryGameMinutes: number): Promise<{ town: Town; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-replay-'));
  const config = loadConfig({}, { dataDir, personasDir: clonePersonas(AGENTS), startTime: '2026-02-13T00:00', logLevel: 'silent', snapshotEveryGameMinutes });
  const town = await Town.open(config, {
    mind: new OfflineMind(),
    embedder: loadOfflineEmbedder(),
    logger: createLogger('silent'),
    runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
  });
  await town.loop.runLockstep(town.gameMs + DAYS * GAME_MS_PER_DAY, 10_000);
  return { town, dataDir };
}

function contextFor(town: Town, dataDir: string): ReplayContext {
  return {
    dataDir,
    live: { world: town.config.world, file: town.db.file, mapFile: town.config.mapFile, simWorld: town.world, mind: town.mind.label },
    embedder: town.embedder,
    retrieval: { weights: town.runtime.settings.retrievalWeights, decayPerGameHour: town.runtime.settings.decayPerGameHour },
    wallClock: systemClock,
  };
}

function measureSeeks(town: Town, dataDir: string, seeks: number): { p50: number; p99: number } {
  const opened = openReplay(contextFor(town, dataDir), null);
  const span = opened.session.currentSpan();
  const rng = new Rng(11);
  const times: number[] = [];
  const state = new TownState();
  for (let i = 0; i < seeks; i++) {
    const t = span.firstGameMs + rng.next() * (span.lastGameMs - span.firstGameMs);
    const t0 = performance.now();
    opened.session.seek(t);
    const view = opened.session.view();
    for (const a of view.agents()) syncAgentState(state, view, a.spec.id);
    times.push(performance.now() - t0);
  }
  opened.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

function fileBytes(file: string): number {
  return ['', '-wal'].reduce((sum, ext) => sum + (fs.existsSync(file + ext) ? fs.statSync(file + ext).size : 0), 0);
}

export async function benchReplay(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const { town, dataDir } = await recordWorld(15);
  town.db.checkpoint();
  out['replay.world_bytes_per_agent_day'] = fileBytes(town.db.file) / (AGENTS * DAYS);
  const seeks = measureSeeks(town, dataDir, 300);
  out['replay.seek_p50_ms'] = seeks.p50;
  out['replay.seek_p99_ms'] = seeks.p99;
  out['replay.snapshots_bytes_per_agent_day'] =
    (town.db.db.prepare('SELECT coalesce(sum(length(state)), 0) FROM snapshots').pluck().get() as number) / (AGENTS * DAYS);

  // One viewer playing at the page's 600× (1× is a game minute a real second, so 600× is ten game hours
  // a real second): ten ticks a second through the whole recorded span.
  const opened = openReplay(contextFor(town, dataDir), null);
  const span = opened.session.currentSpan();
  opened.session.seek(span.firstGameMs);
  opened.session.rate = PLAY_RATE_600X;
  const state = new TownState();
  state.mapWidth = town.map.widthTiles;
  const encoder = new Encoder(state);
  const ticks = Math.floor((span.lastGameMs - span.firstGameMs) / (100 * PLAY_RATE_600X));
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < ticks && opened.session.rate > 0; i++) {
    opened.session.advance(100);
    const view = opened.session.view();
    for (const a of view.agents()) syncAgentState(state, view, a.spec.id);
    // What the room sends each tick: the patch, encoded.
    encoder.encode();
    encoder.discardChanges();
  }
  const cpu = process.cpuUsage(cpu0);
  out['replay.play_cpu_pct'] = (100 * (cpu.user + cpu.system)) / 1000 / (ticks * 100);
  opened.close();
  await town.close();
  return out;
}
