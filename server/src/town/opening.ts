// The steps of `Town.open` that find and wire a world's parts: the world file opened and bound to this
// town, where it starts (resumed from its log, or a first start, perhaps one cut short), the mind with
// hooks that log its fallbacks, mends, budget pauses and endpoint changes, the agent runtime, and the
// storage state that holds the clock while the disk refuses writes.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { AgentId } from '../protocol/ids';
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { SimWorld } from '../sim/state';
import { AgentRuntime } from '../agent/AgentRuntime';
import { seedTexts } from '../agent/operations/interview';
import type { Embedder } from '../llm/types';
import { LlmAbortedError } from '../llm/errors';
import { openWorldDb, type WorldDb } from '../store/WorldDb';
import { stateAt, type TownAt } from '../history/stateAt';
import type { WallClock } from '../core/wallClock';
import type { MindBundle, MindHooks } from './minds';
import type { Mind } from '../agent/mind';
import type { RuntimeSettings } from '../agent/context';
import { recordsFor } from './records';
import type { Logger } from './logger';
import type { ClockHolds } from './holds';
import { StorageState } from './storage';
import type { TownLog } from './log';
import { bindWorldToTown, townIdentityOf } from './binding';

/** The world's SQLite file, opened (created when new) with the embedder it is bound to. */
export function openWorldFile(config: Config, embedder: Embedder, wallClock: WallClock): { db: WorldDb; file: string } {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, `${config.world}.sqlite`);
  const db = openWorldDb(
    file,
    { model: embedder.model, dimension: embedder.dimension },
    { clock: wallClock, columnCacheBytes: config.memoryCacheMb * 1024 * 1024 },
  );
  return { db, file };
}

/** Refuses a world file opened on another town's map or people (binding.ts), before anything is written. */
export function bindToTown(db: WorldDb, config: Config, file: string, personaIds: Iterable<string>, logger: Logger): void {
  const ids = new Set(personaIds);
  const identity = townIdentityOf(config.mapFile, config.personasDir, ids);
  const moved = bindWorldToTown(db, { world: config.world, file, identity, personaIds: ids, moveWorld: config.moveWorld });
  if (moved) logger.warn(moved);
}

/**
 * Where the world starts: resumed at the end of its log (the last snapshot with the events after it folded
 * in), or new. A first start cut short keeps the residents it finished seeding, or all it wrote is cleared.
 */
export function findStart(
  db: WorldDb,
  world: SimWorld,
  personaList: readonly Persona[],
  file: string,
  logger: Logger,
): { resumed: TownAt | null; seeded: ReadonlySet<string> } {
  const resumed = stateAt(db, world, null);
  if (resumed) return { resumed, seeded: new Set() };
  const left = db.unfinishedStart(new Map(personaList.map((p) => [p.id as string, seedTexts(p)])));
  if ('kept' in left) {
    const seeded = new Set(left.kept);
    const what = `${seeded.size} of ${personaList.length} residents seeded`;
    logger.warn(`${file}: its first start stopped before the world was first saved, with ${what}; seeding the rest`);
    return { resumed, seeded };
  }
  if (left.discarded.memories + left.discarded.events > 0) {
    const dropped = `dropped ${left.discarded.memories} memories and ${left.discarded.events} events it had written`;
    logger.warn(`${file}: its first start stopped before the world was first saved; starting anew (${dropped})`);
  }
  return { resumed, seeded: new Set() };
}

/** What the mind's hooks need: where they log, the clock they stamp with, the holds a budget pause sets. */
interface HookParts {
  db: WorldDb;
  clock: SimClock;
  wallClock: WallClock;
  log: TownLog;
  holds: ClockHolds;
  logger: Logger;
}

/** The hooks an LLM stack reports through: each a line in the server log and an event in the world's. */
export function mindHooksOf({ db, clock, wallClock, log, holds, logger }: HookParts): MindHooks {
  return {
    db,
    gameNow: () => clock.gameMs,
    wallClock,
    onFallback: (r) => {
      logger.warn(`LLM fallback for ${r.agentId ?? 'town'} (${r.purpose}): ${r.reason}`);
      log.queue([{ gameMs: clock.gameMs, kind: 'llm.fallback', agentId: r.agentId as AgentId | null, data: { purpose: r.purpose, reason: r.reason } }]);
    },
    onMend: (r) => {
      logger.debug(`LLM ${r.how} for ${r.agentId ?? 'town'} (${r.purpose}): ${r.note}`);
      const data = { purpose: r.purpose, how: r.how, note: r.note };
      log.queue([{ gameMs: clock.gameMs, kind: 'llm.mend', agentId: r.agentId as AgentId | null, data }]);
    },
    onBudgetPause: (message) => {
      logger.warn(message);
      holds.budgetSpent(true);
      log.queue([{ gameMs: clock.gameMs, kind: 'budget.paused', agentId: null, data: { message } }]);
    },
    onBudgetResume: () => holds.budgetSpent(false),
    onEndpointChange: (c) => {
      const what = c.state === 'out' ? `taken out for ${Math.round(c.outMs / 1000)} s: ${c.error}` : 'back in';
      logger.warn(`LLM endpoint ${c.name} ${what}`);
      log.queue([{ gameMs: clock.gameMs, kind: 'llm.endpoint', agentId: null, data: c }]);
    },
  };
}

/** The mind: built over the world's file by `createMind` when given (an LLM stack), else the one passed in. */
export function mindBundleOf(
  parts: { createMind?: (hooks: MindHooks) => MindBundle; mind?: Mind; runtimeSettings?: Partial<RuntimeSettings> },
  hooks: HookParts,
): MindBundle {
  if (parts.createMind) return parts.createMind(mindHooksOf(hooks));
  return { mind: parts.mind!, runtimeSettings: parts.runtimeSettings ?? {}, stack: null };
}

interface RuntimeParts {
  config: Config;
  map: TownMap;
  personas: Map<string, Persona>;
  bundle: MindBundle;
  db: WorldDb;
  embedder: Embedder;
  sim: Simulation;
  log: TownLog;
  logger: Logger;
  runtimeSettings?: Partial<RuntimeSettings>;
  /** Counts the operations whose LLM calls the close stopped. */
  stoppedAtClose: { count: number };
}

/** The agent runtime over the world's memories and log; an operation that fails is a warning. */
export function runtimeOf(p: RuntimeParts): AgentRuntime {
  const { config, sim, logger, stoppedAtClose } = p;
  return new AgentRuntime({
    map: p.map,
    seed: config.seed,
    personas: p.personas,
    mind: p.bundle.mind,
    memories: p.db.memories,
    embedder: p.embedder,
    records: recordsFor(p.db),
    sim: { agent: (id) => sim.agent(id) },
    emit: (events) => p.log.queue(events),
    settings: { ablation: config.ablation, conversationMode: config.conversationMode, ...p.bundle.runtimeSettings, ...p.runtimeSettings },
    onError: (request, error) => {
      // Stopped by the close (counted there); anything else is worth a line.
      if (error instanceof LlmAbortedError) stoppedAtClose.count++;
      else logger.warn(`operation ${request.kind} failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  });
}

/** Whether the world file takes writes; a change either way is a line in the server log. */
export function storageStateOf(config: Config, wallClock: WallClock, logger: Logger): StorageState {
  return new StorageState(
    () => wallClock.now(),
    (problem, previous) =>
      problem
        ? logger.error(`world '${config.world}': the world file refuses writes (${problem.error}); the town is paused until a write succeeds`)
        : logger.info(`world '${config.world}': writes succeed again after ${previous!.failedWrites} failed; the town resumes`),
  );
}
