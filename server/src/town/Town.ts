// One running world, composed: map, personas, sim, clock, minds, the world's SQLite file, and the parts
// that drive them (the loop, operator commands, clock holds, the event log). Rooms, the HTTP API, jobs,
// tests and benchmarks reach those parts through a Town; none of them holds rules of its own.
import type { Config } from '../config';
import { startGameMs } from '../config';
import type { AgentId } from '../protocol/ids';
import { loadTownFiles } from '../world/townFiles';
import { PersonaMap, type Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { Simulation } from '../sim/Simulation';
import { SimClock } from '../sim/clock';
import { createSimWorld, type SimWorld } from '../sim/state';
import type { Input } from '../sim/types';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { RuntimeSettings } from '../agent/context';
import type { Mind } from '../agent/mind';
import type { ChatStack } from '../llm/stack';
import type { Embedder } from '../llm/types';
import { isDamage, restoreAdvice, WorldFileError, type WorldDb } from '../store/WorldDb';
import { systemClock, type WallClock } from '../core/wallClock';
import type { MindBundle, MindHooks } from './minds';
import { personaEvent, residentChanged, toResident } from './residents';
import type { Logger } from './logger';
import { ClockHolds } from './holds';
import { isStorageFault } from './storage';
import { TownLog } from './log';
import { TownLoop } from './loop';
import { OperatorCommands } from './commands';
import { bindToTown, findStart, mindBundleOf, openWorldFile, runtimeOf, storageStateOf } from './opening';
import { spectatorPath } from '../core/projectRoot';

/**
 * At close, how long operations in flight may take to finish on their own (a healthy endpoint's answers are
 * kept) before every LLM call still going is stopped: a town closes promptly whatever its endpoint does.
 */
export const CLOSE_GRACE_MS = 1_500;

/** Whether `work` settles within `ms` (it goes on either way). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = work.then(
    () => true,
    () => true,
  );
  const inTime = await Promise.race([done, new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)))]);
  clearTimeout(timer);
  return inTime;
}

export interface TownParts {
  embedder: Embedder;
  logger: Logger;
  /** A ready mind (tests use the offline one)… */
  mind?: Mind;
  runtimeSettings?: Partial<RuntimeSettings>;
  /** …or a factory that builds one over the world's file (the LLM stack caches and logs there). */
  createMind?: (hooks: MindHooks) => MindBundle;
  /** Wall time for the room, jobs and records; tests pass a ManualClock. */
  wallClock?: WallClock;
  /**
   * A new world's first start (its residents' seed memories rated, the run started, the first snapshot)
   * goes on after `open` returns, the clock held ('starting') until it is done, so a server serves the
   * page at once however slow the LLM is. Without it (scenarios, tests) `open` returns a started town.
   */
  startInBackground?: boolean;
}

/** How the world file was found: new, or resumed with the events folded in since its last snapshot. */
export type Opening = { kind: 'new' } | { kind: 'resumed'; folded: number; skipped: number };

interface Composed {
  config: Config;
  map: TownMap;
  world: SimWorld;
  personas: Map<string, Persona>;
  db: WorldDb;
  sim: Simulation;
  clock: SimClock;
  runtime: AgentRuntime;
  mind: Mind;
  stack: ChatStack | null;
  log: TownLog;
  holds: ClockHolds;
  loop: TownLoop;
  commands: OperatorCommands;
  wallClock: WallClock;
  logger: Logger;
  embedder: Embedder;
  opening: Opening;
  /** Operations whose LLM calls the close stopped. */
  stoppedAtClose: { count: number };
}

export class Town implements Composed {
  readonly config: Config;
  readonly map: TownMap;
  readonly world: SimWorld;
  readonly personas: Map<string, Persona>;
  readonly db: WorldDb;
  readonly sim: Simulation;
  readonly clock: SimClock;
  readonly runtime: AgentRuntime;
  readonly mind: Mind;
  /** The LLM stack's controls (budget, scheduler, cache), when an LLM runs. */
  readonly stack: ChatStack | null;
  readonly log: TownLog;
  readonly holds: ClockHolds;
  readonly loop: TownLoop;
  readonly commands: OperatorCommands;
  readonly wallClock: WallClock;
  readonly logger: Logger;
  readonly embedder: Embedder;
  readonly opening: Opening;
  private closed = false;
  /** A new world's background first start failed: its close leaves no clean-close stamp. */
  private startFailed = false;
  /** A new world's background first start (see `startInBackground`); resolved at once otherwise. */
  private startup: Promise<void> = Promise.resolve();
  /** Operations whose LLM calls the close stopped. */
  readonly stoppedAtClose: { count: number };

  /** The clock's time when the world was opened: where a restart resumes if nothing later was committed. */
  private readonly openedAtGameMs: number;

  private constructor(parts: Composed) {
    this.config = parts.config;
    this.map = parts.map;
    this.world = parts.world;
    this.personas = parts.personas;
    this.db = parts.db;
    this.sim = parts.sim;
    this.clock = parts.clock;
    this.openedAtGameMs = parts.clock.gameMs;
    this.runtime = parts.runtime;
    this.mind = parts.mind;
    this.stack = parts.stack;
    this.log = parts.log;
    this.holds = parts.holds;
    this.loop = parts.loop;
    this.commands = parts.commands;
    this.wallClock = parts.wallClock;
    this.logger = parts.logger;
    this.embedder = parts.embedder;
    this.opening = parts.opening;
    this.stoppedAtClose = parts.stoppedAtClose;
  }

  /** Loads the map and personas (clear errors naming file and field), opens or resumes the world file. */
  static async open(config: Config, parts: TownParts): Promise<Town> {
    const { logger, embedder } = parts;
    const { map, personas: personaList } = loadTownFiles(config.mapFile, config.personasDir, (w) => logger.warn(w.message));
    const personas = new PersonaMap(personaList.map((p) => [p.id as string, p]));
    const wallClock = parts.wallClock ?? systemClock;
    const { db, file } = openWorldFile(config, embedder, wallClock);
    try {
      bindToTown(db, config, file, personas.keys(), logger);
      const world = createSimWorld(map);
      const { resumed, seeded } = findStart(db, world, personaList, file, logger);
      const start = startGameMs(config);
      const sim = resumed
        ? Simulation.fromState(world, resumed.sim)
        : new Simulation(
            world,
            personaList.map((p) => toResident(p, map)),
            { seed: config.seed, startGameMs: start },
          );
      const clock = new SimClock(resumed ? resumed.clock : { gameMs: start, rate: config.rate, paused: false });
      const holds = new ClockHolds(wallClock.now());
      if (clock.paused) holds.operatorPaused(true);
      const log = new TownLog(db);
      const bundle = mindBundleOf(parts, { db, clock, wallClock, log, holds, logger });
      const stoppedAtClose = { count: 0 };
      const runtime = runtimeOf({ config, map, personas, bundle, db, embedder, sim, log, logger, runtimeSettings: parts.runtimeSettings, stoppedAtClose });
      const storage = storageStateOf(config, wallClock, logger);
      const loop = new TownLoop({ config, sim, clock, runtime, db, log, holds, storage });
      const { personasDir } = config;
      const commands = new OperatorCommands({ personasDir, map, personas, sim, clock, runtime, loop, log, holds, logger, db });
      const opening: Opening = resumed ? { kind: 'resumed', folded: resumed.folded, skipped: resumed.skipped } : { kind: 'new' };
      const { mind, stack } = bundle;
      const town = new Town({
        config,
        map,
        world,
        personas,
        db,
        sim,
        clock,
        runtime,
        mind,
        stack,
        log,
        holds,
        loop,
        commands,
        wallClock,
        logger,
        embedder,
        opening,
        stoppedAtClose,
      });
      await town.start(personaList, seeded, parts.startInBackground ?? false);
      return town;
    } catch (error) {
      // A failed start leaves no clean-close stamp: the next start checks the whole file.
      db.close({ stamp: false });
      if (isDamage(error)) throw new WorldFileError(file, `is damaged (${errorText(error)}); ${restoreAdvice(file)}`);
      throw error;
    }
  }

  private async start(personaList: Persona[], seeded: ReadonlySet<string>, inBackground: boolean): Promise<void> {
    const now = this.clock.gameMs;
    if (this.opening.kind === 'resumed') {
      // Operations in flight when the process stopped are gone. The town is who was in it: a persona file
      // never added, or removed from town by the operator, stays out (it can be added from the page); a
      // resident whose file is gone leaves.
      const inputs: Input[] = [{ kind: 'restarted' }];
      const present = new Set(this.sim.agents().map((a) => a.spec.id as string));
      for (const id of present) if (!this.personas.has(id)) inputs.push({ kind: 'removeAgent', agentId: id as AgentId, left: 'its persona file is gone' });
      // An operator's add the last run logged (the persona seeded) but stopped before a step applied: it arrives now.
      const lastAction = new Map<string, string>();
      for (const e of this.db.events.scan({ kinds: ['operator.action'] }))
        if (e.kind === 'operator.action' && e.data.agentId && (e.data.action === 'add agent' || e.data.action === 'remove agent'))
          lastAction.set(e.data.agentId, e.data.action);
      for (const p of personaList)
        if (!present.has(p.id) && lastAction.get(p.id) === 'add agent') {
          inputs.push({ kind: 'addAgent', resident: toResident(p, this.map) });
          present.add(p.id);
        }
      const outside = personaList.filter((p) => !present.has(p.id)).length;
      if (outside > 0)
        this.logger.info(`world '${this.config.world}': ${outside} persona file(s) in ${this.config.personasDir} are not in town; add them from the page`);
      // A file edited while the town was stopped: its hours, bed and look take over from the next plan, as a live edit's do.
      for (const p of personaList) {
        const agent = this.sim.agent(p.id);
        const resident = agent ? toResident(p, this.map) : null;
        if (agent && resident && residentChanged(agent.nextSpec ?? agent.spec, resident)) inputs.push({ kind: 'updateResident', resident });
      }
      this.loop.enqueue(...inputs);
      const { folded } = this.opening;
      const agents = [...present].filter((id) => this.personas.has(id)).length;
      this.log.write([{ gameMs: now, kind: 'run.resumed', agentId: null, data: { mind: this.mind.label, agents, folded } }]);
      const lastSeq = this.db.events.lastSeq();
      this.logger.info(
        `resumed world '${this.config.world}' at game time ${new Date(now).toISOString()} (last event ` +
          `#${lastSeq}, ${folded} folded in since the last snapshot; file checked: ${this.db.openCheck})`,
      );
    } else if (inBackground) {
      this.holds.starting(true);
      this.startup = this.begin(personaList, seeded, now).then(
        () => this.holds.starting(false),
        (error: unknown) => {
          if (this.closed)
            return this.logger.info(`world '${this.config.world}': stopped during its first start; the next start seeds the residents not yet seeded`);
          this.startFailed = true;
          this.logger.error(
            `world '${this.config.world}': its first start failed (${error instanceof Error ? error.message : String(error)}); ` +
              'the town stays held; a restart seeds the residents not yet seeded',
          );
        },
      );
    } else {
      await this.begin(personaList, seeded, now);
    }
  }

  /**
   * A new world's first start: every resident's seed memories (but those a start cut short already wrote),
   * committed a slice of residents at a time with their events, then the personas and `run.started` logged,
   * and the first snapshot. A close stops the seeding between slices.
   */
  private async begin(personaList: Persona[], seeded: ReadonlySet<string>, now: number): Promise<void> {
    const unseeded = personaList.filter((p) => !seeded.has(p.id)).map((p) => p.id);
    await this.runtime.seed(unseeded, now, {
      commit: (write) =>
        this.db.batch(async () => {
          write();
          this.log.flush();
        }),
      stopped: () => this.closed,
    });
    if (this.closed) return;
    this.log.queue(personaList.map((p) => personaEvent(p, now)));
    const data = {
      mind: this.mind.label,
      agents: personaList.length,
      seed: this.config.seed,
      // Spectators read the log: a map outside the working folder is named by its file alone (its path is in meta).
      map: spectatorPath(this.config.mapFile),
      ablation: this.runtime.settings.ablation,
      conversationMode: this.runtime.settings.conversationMode,
    };
    this.log.write([{ gameMs: now, kind: 'run.started', agentId: null, data }]);
    this.loop.saveSnapshot();
  }

  /** False while a new world's first start goes on in the background, or failed: the clock is held 'starting'. */
  get isStarted(): boolean {
    return !this.holds.has('starting');
  }

  /** Resolves once the town has started (at once for a resumed world or one started in the foreground). */
  whenStarted(): Promise<void> {
    return this.startup;
  }

  get gameMs(): number {
    return this.clock.gameMs;
  }

  /**
   * The game time viewers are shown: the clock's, except while the file refuses writes, when it is the time last
   * committed (a step the disk refused is not shown as passed: a restart resumes from the committed time).
   */
  get shownGameMs(): number {
    const committed = this.log.committedGameMs ?? this.openedAtGameMs;
    return this.loop.storageProblem ? Math.min(this.clock.gameMs, committed) : this.clock.gameMs;
  }

  get resumed(): boolean {
    return this.opening.kind === 'resumed';
  }

  /** The token that makes a client an operator (set in the config or generated at start-up). */
  get operatorToken(): string {
    return this.config.operatorToken ?? '';
  }

  /**
   * Stops stepping, gives operations in flight CLOSE_GRACE_MS to finish, then stops every LLM call still
   * going (in flight, queued or sitting out a retry: those operations end and write nothing more), saves
   * what is left and closes the file. Prompt whatever the endpoint does: down, hanging or refusing.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.isStarted) {
      // Stopped during its first start: no snapshot, so the next start goes on from the residents seeded (whole
      // slices). The seeding stops between slices; a slice in flight gets the same grace as work in flight,
      // then its LLM calls are stopped.
      if (!(await settlesWithin(this.startup, graceMs)) && this.stack) this.stack.close();
      await this.startup;
      this.log.close();
      this.db.close({ stamp: !this.startFailed });
      return;
    }
    this.loop.stop();
    const settled = this.loop.settle();
    if (!(await settlesWithin(settled, graceMs)) && this.stack) {
      this.stack.close();
      await settled;
      this.logger.info(`world '${this.config.world}': stopped ${this.stoppedAtClose.count} operation(s) still waiting on the LLM at close`);
    } else await settled;
    // The observations still waiting for a batch are rated by the LLM if it answers within the grace, else
    // (its calls stopped) by the offline rules: a stop must not sit out a down endpoint's retries here either.
    const flushed = this.runtime.flushObservations(this.clock.gameMs);
    if (!(await settlesWithin(flushed, graceMs)) && this.stack) this.stack.close();
    try {
      await flushed;
    } catch (error) {
      this.logger.error(`world '${this.config.world}': observations waiting for a batch were not stored at close: ${errorText(error)}`);
    }
    try {
      this.log.flush();
      this.loop.saveSnapshot();
    } catch (error) {
      // A full disk at shutdown: what is committed stays; the file is closed all the same.
      if (!isStorageFault(error)) throw error;
      this.logger.error(`world '${this.config.world}': could not save at shutdown (${errorText(error)}); the last committed state stays`);
    }
    this.log.close();
    this.db.close();
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
