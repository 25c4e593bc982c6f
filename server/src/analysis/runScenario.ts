// A scenario run with no browser: the town is built as the server builds it (Town.open with the mind
// from town/minds.ts, so an LLM goes through the same scheduler, budget and cache) and driven in
// lockstep as fast as the mind allows. Interventions are applied through the operator commands at
// their game times, each once (the log says which were applied, so a resumed run skips them). A run
// stopped early resumes from the end of its log; at the end every agent may be interviewed (on
// the LLM or the offline mind) and the report is written beside the world file.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import type { AgentId } from '../protocol/ids';
import { formatIsoMinute, parseIsoMinute } from '../protocol/time';
import { Town } from '../town/Town';
import { buildMinds } from '../town/minds';
import { warmNlp } from '../agent/nlp';
import type { Logger } from '../town/logger';
import { PersonasError } from '../world/persona';
import { loadTownMap } from '../world/map';
import type { TownMap } from '../world/types';
import { loadPersonas } from '../world/persona';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';
import { openWorldForReading } from '../history/worlds';
import { checkScenario, personaFilesOf, scenarioSpan, ScenarioError, type Intervention, type Scenario } from './scenario';
import { buildReport, writeReport, type Report } from './report';
import { interviewQuestion } from './metrics';

/** Game time one lockstep chunk covers: a stop request is honoured between chunks. */
export const CHUNK_GAME_MS = 5 * 60_000;
/** Game time between two lockstep steps (the sim's step in headless runs). */
export const STEP_GAME_MS = 10_000;
/** Wall time of offline work a headless run commits at once (WorldDb.batch): at most what a kill loses. */
export const BATCH_WALL_MS = 250;
/** How often a headless run snapshots the town when SNAPSHOT_EVERY_GAME_MINUTES is not set. */
export const HEADLESS_SNAPSHOT_EVERY_GAME_MINUTES = 60;

export interface RunProgress {
  world: string;
  startGameMs: number;
  endGameMs: number;
  gameMs: number;
  conversations: number;
  memories: number;
  llmCalls: number;
  tokens: number;
  costUsd: number;
}

export interface RunOptions {
  scenario: Scenario;
  scenarioFile: string;
  /** The environment (LLM settings, DATA_DIR…); the scenario sets map, personas, seed, start and ablation. */
  env?: Record<string, string | undefined>;
  world?: string;
  seed?: number;
  /** Run this many game days instead of the scenario's. */
  days?: number;
  logger: Logger;
  onProgress?: (p: RunProgress) => void;
  /** Asked between chunks; true stops the run cleanly (the town closes with a snapshot). */
  shouldStop?: () => boolean;
}

export interface RunOutcome {
  world: string;
  finished: boolean;
  resumed: boolean;
  reportJson: string | null;
  reportMd: string | null;
  report: Report | null;
  config: Config;
}

/** The world file's name for a scenario and seed. */
export function worldNameFor(scenario: Scenario, world: string | undefined, seed: number | undefined): string {
  const base = world ?? scenario.name;
  return seed === undefined ? base : `${base}-seed${seed}`;
}

/**
 * The cast as one folder: a single folder is used as it is; several are linked into
 * DATA_DIR/<world>.personas (rebuilt each run), and persona errors name the original files.
 */
export function stagePersonas(scenario: Scenario, scenarioFile: string, dataDir: string, world: string): { dir: string; originals: Map<string, string> } {
  const files = personaFilesOf(scenario, scenarioFile);
  if (!Array.isArray(scenario.personas)) return { dir: scenario.personas, originals: new Map() };
  const dir = path.join(dataDir, `${world}.personas`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const originals = new Map<string, string>();
  for (const [id, file] of files) {
    const staged = path.join(dir, path.basename(file));
    fs.symlinkSync(path.resolve(file), staged);
    originals.set(staged, file);
  }
  return { dir, originals };
}

function renamePersonaErrors(error: unknown, originals: Map<string, string>): unknown {
  if (!(error instanceof Error) || originals.size === 0) return error;
  let message = error.message;
  for (const [staged, original] of originals) message = message.split(staged).join(original);
  const out = new Error(message);
  out.name = error.name;
  return out;
}

/** Which interventions the log says were applied (operator actions by `scenario:<index>`). */
function appliedInterventions(town: Town): Set<number> {
  const done = new Set<number>();
  for (const e of town.db.events.scan({ kinds: ['operator.action'] }))
    if (e.kind === 'operator.action' && e.data.by.startsWith('scenario:')) done.add(Number(e.data.by.slice('scenario:'.length)));
  return done;
}

async function applyIntervention(town: Town, iv: Intervention, index: number): Promise<void> {
  const by = `scenario:${index}`;
  if (iv.kind === 'whisper') await town.commands.whisper(iv.agent as AgentId, iv.text, by);
  else town.commands.inject(iv.text, iv.place, by);
}

function countProgress(town: Town, span: { startGameMs: number; endGameMs: number }, world: string) {
  const count = (sql: string) => town.db.db.prepare(sql).pluck().get() as number;
  const base = {
    conversations: count("SELECT count(*) FROM events WHERE kind = 'conversation.start'"),
    memories: count('SELECT count(*) FROM memories'),
  };
  return {
    base,
    now(extra: { conversations: number; memories: number }): RunProgress {
      const calls = town.db.summariseCalls();
      return {
        world,
        ...span,
        gameMs: town.gameMs,
        conversations: base.conversations + extra.conversations,
        memories: base.memories + extra.memories,
        llmCalls: calls.calls,
        tokens: calls.promptTokens + calls.completionTokens,
        costUsd: calls.costUsd,
      };
    },
  };
}

/** The scenario cut to `days`: interventions and attendance windows past the new end are left out, with a warning. */
export function shortenScenario(scenario: Scenario, days: number, logger: Logger): Scenario {
  if (days >= scenario.days) return { ...scenario, days };
  const { endGameMs } = scenarioSpan({ start: scenario.start, days });
  const interventions = scenario.interventions.filter((iv) => parseIsoMinute(iv.at)! <= endGameMs);
  const attendance = scenario.attendance.filter((a) => parseIsoMinute(a.to)! <= endGameMs);
  const dropped = scenario.interventions.length - interventions.length + scenario.attendance.length - attendance.length;
  if (dropped) logger.warn(`--days ${days}: ${dropped} intervention(s) or attendance window(s) fall after the run's end and are left out`);
  return { ...scenario, days, interventions, attendance };
}

export async function runScenario(o: RunOptions): Promise<RunOutcome> {
  const { scenarioFile, logger } = o;
  const scenario = o.days === undefined ? o.scenario : shortenScenario(o.scenario, o.days, logger);
  const env = o.env ?? {};
  const world = worldNameFor(scenario, o.world, o.seed);
  const dataDir = loadConfig(env, {}).dataDir;
  fs.mkdirSync(dataDir, { recursive: true });
  const staged = stagePersonas(scenario, scenarioFile, dataDir, world);
  const config = scenarioConfig(scenario, env, { world, dataDir, personasDir: staged.dir, seed: o.seed ?? scenario.seed });
  // Check the scenario against the map and the cast before anything is written.
  const map = loadTownMap(config.mapFile);
  checkScenario(scenario, scenarioFile, map, castOf(config, map, staged.originals));

  const minds = await buildMinds(config, logger);
  const town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger }).catch((error: unknown) => {
    throw renamePersonaErrors(error, staged.originals);
  });
  const resumed = town.resumed;
  let finished = false;
  try {
    recordScenarioStart(town, scenario, scenarioFile, { world, dataDir });
    // The offline voice's tagger, loaded now rather than in the first conversation (half a second, once).
    if (minds.label === 'offline') warmNlp();
    finished = await driveToEnd(town, scenario, o, { world, offline: minds.label === 'offline' });
    if (finished && scenario.interview) await interviewEveryone(town, scenario);
  } finally {
    await town.close();
  }
  if (!finished) return { world, finished, resumed, reportJson: null, reportMd: null, report: null, config };
  return { world, finished, resumed, ...(await reportRun(dataDir, world, map, scenario)), config };
}

/** The run's settings: the environment's, with the map, cast, seed, start and ablation the scenario sets. */
function scenarioConfig(
  scenario: Scenario,
  env: Record<string, string | undefined>,
  run: { world: string; dataDir: string; personasDir: string; seed: number },
): Config {
  return loadConfig(env, {
    ...run,
    mapFile: scenario.map,
    startTime: scenario.start,
    ablation: scenario.ablation,
    idlePauseMinutes: 0,
    // A headless run is read once it ends, where snapshots past the last 6 game hours are thinned to one
    // an hour anyway: it saves one an hour unless told otherwise (each is a whole-town JSON, deflated).
    ...(env.SNAPSHOT_EVERY_GAME_MINUTES === undefined ? { snapshotEveryGameMinutes: HEADLESS_SNAPSHOT_EVERY_GAME_MINUTES } : {}),
  });
}

/** The ids of the cast, loaded as the town will load them; persona errors name the original files. */
function castOf(config: Config, map: TownMap, originals: Map<string, string>): Set<string> {
  try {
    return new Set(loadPersonas(config.personasDir, map).map((p) => p.id as string));
  } catch (error) {
    throw error instanceof PersonasError ? renamePersonaErrors(error, originals) : error;
  }
}

/** A new world logs the scenario it runs; a resumed one must have been started by this scenario. */
function recordScenarioStart(town: Town, scenario: Scenario, scenarioFile: string, where: { world: string; dataDir: string }): void {
  const recorded = [...town.db.events.scan({ kinds: ['scenario.started'] })][0];
  if (!recorded) {
    if (town.resumed)
      throw new ScenarioError(scenarioFile, [
        { field: '', message: `the world '${where.world}' in ${where.dataDir} was not started by a scenario: choose another --world` },
      ]);
    town.log.write([{ gameMs: town.gameMs, kind: 'scenario.started', agentId: null, data: { name: scenario.name, file: scenarioFile, scenario } }]);
  } else if (recorded.kind === 'scenario.started' && recorded.data.name !== scenario.name) {
    throw new ScenarioError(scenarioFile, [
      { field: 'name', message: `the world '${where.world}' was started by scenario '${recorded.data.name}': choose another --world` },
    ]);
  }
}

/** The interventions the log does not say were applied yet, in the order they fall due. */
function pendingInterventions(town: Town, scenario: Scenario): Array<{ iv: Intervention; index: number; gameMs: number }> {
  const done = appliedInterventions(town);
  return scenario.interventions
    .map((iv, index) => ({ iv, index, gameMs: parseIsoMinute(iv.at)! }))
    .filter((p) => !done.has(p.index))
    .sort((a, b) => a.gameMs - b.gameMs || a.index - b.index);
}

/**
 * Runs the town in lockstep chunks to the scenario's end, applying each intervention as it falls due and
 * reporting progress after each chunk; true when it got there (false when asked to stop).
 */
async function driveToEnd(town: Town, scenario: Scenario, o: RunOptions, run: { world: string; offline: boolean }): Promise<boolean> {
  const span = scenarioSpan({ start: scenario.start, days: scenario.days });
  const pending = pendingInterventions(town, scenario);
  const progress = countProgress(town, span, run.world);
  const seen = { conversations: 0, memories: 0 };
  o.onProgress?.(progress.now(seen));
  const chunk = async (): Promise<void> => {
    const until = Math.min(span.endGameMs, town.gameMs + CHUNK_GAME_MS, pending[0]?.gameMs ?? Infinity);
    await town.loop.runLockstep(until, STEP_GAME_MS, (r) => {
      for (const e of r.logged) {
        if (e.kind === 'conversation.start') seen.conversations++;
      }
    });
    await town.runtime.idle();
    seen.memories = (town.db.db.prepare('SELECT count(*) FROM memories').pluck().get() as number) - progress.base.memories;
    o.onProgress?.(progress.now(seen));
    // Offline, a chunk never waits on I/O: yield to the event loop, so a Ctrl-C (a signal) is heard.
    await new Promise((resolve) => setImmediate(resolve));
  };
  const due = () => pending.length > 0 && pending[0].gameMs <= town.gameMs;
  while (town.gameMs < span.endGameMs) {
    while (due()) {
      const p = pending.shift()!;
      await applyIntervention(town, p.iv, p.index);
      o.logger.debug(`intervention ${p.index} (${p.iv.kind}) at ${formatIsoMinute(town.gameMs)}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (o.shouldStop?.()) break;
    if (run.offline) {
      // Offline, nothing waits on I/O: chunks commit together (WorldDb.batch), until the next
      // intervention, a stop, or BATCH_WALL_MS of work, which is what a kill can lose.
      await town.db.batch(async () => {
        const started = performance.now();
        do await chunk();
        while (town.gameMs < span.endGameMs && !due() && !o.shouldStop?.() && performance.now() - started < BATCH_WALL_MS);
      });
    } else {
      // On an LLM each write commits as it comes, so a stop keeps every paid reply.
      await chunk();
    }
  }
  return town.gameMs >= span.endGameMs;
}

/** The finished world's report, written beside its file as JSON and Markdown. */
async function reportRun(dataDir: string, world: string, map: TownMap, scenario: Scenario): Promise<{ reportJson: string; reportMd: string; report: Report }> {
  const db = openWorldForReading(dataDir, world, null);
  try {
    const report = await buildReport(db, map, loadOfflineEmbedder(), { world, scenario });
    const reportJson = path.join(dataDir, `${world}.report.json`);
    const reportMd = path.join(dataDir, `${world}.report.md`);
    writeReport(report, reportJson, reportMd);
    return { reportJson, reportMd, report };
  } finally {
    db.close();
  }
}

/** The paper's end-of-run interview: every agent about every topic, once (answers are in the log). */
async function interviewEveryone(town: Town, scenario: Scenario): Promise<void> {
  const asked = new Set<string>();
  for (const e of town.db.events.scan({ kinds: ['operator.action'] }))
    if (e.kind === 'operator.action' && e.data.action === 'interview' && e.data.by === 'analysis') asked.add(`${e.data.agentId}|${e.data.question}`);
  for (const topic of scenario.topics) {
    const question = interviewQuestion(topic);
    await Promise.all(
      town.sim
        .agents()
        .filter((a) => !asked.has(`${a.spec.id}|${question}`))
        .map((a) => town.commands.interview(a.spec.id, question, 'analysis')),
    );
  }
}
