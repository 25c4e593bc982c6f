// One running world: the composition of map, personas, sim, clock, minds and the world's SQLite file.
// Rooms, the HTTP API, jobs, tests and benchmarks all drive a Town; none of them holds rules of its own.
import path from 'node:path';
import fs from 'node:fs';
import type { Config } from '../config';
import { startGameMs } from '../config';
import { loadTownMap } from '../world/map';
import { loadPersonas, parsePersona, PersonasError, validatePersonaAgainstMap, type Persona } from '../world/persona';
import type { AgentId, TownMap } from '../world/types';
import { Simulation } from '../sim/Simulation';
import { SimClock, type ClockState } from '../sim/clock';
import { dayIndex, minuteOfDay, GAME_MS_PER_MINUTE } from '../protocol/time';
import type { Input, OperationRequest, SimState, StepResult } from '../sim/types';
import { AgentRuntime, type RuntimeSettings } from '../agent/AgentRuntime';
import type { Mind } from '../agent/mind';
import type { MindBundle, MindHooks } from '../agent/minds';
import type { ChatStack } from '../llm/stack';
import type { Embedder } from '../llm/types';
import type { EventInput, LoggedEvent } from '../store/types';
import { openWorldDb, type WorldDb } from '../store/WorldDb';
import { recordsFor } from './records';
import { toResident } from './residents';
import type { Logger } from './logger';

/** How far game time may run ahead of the oldest thought still in flight, with CLOCK_POLICY=wait. */
export const MAX_MIND_LAG_GAME_MINUTES = 30;

export type HoldReason = 'paused' | 'idle' | 'waiting-for-minds' | 'budget';

export interface TownParts {
  embedder: Embedder;
  logger: Logger;
  /** A ready mind (tests use the offline one)… */
  mind?: Mind;
  runtimeSettings?: Partial<RuntimeSettings>;
  /** …or a factory that builds one over the world's file (the LLM stack caches and logs there). */
  createMind?: (hooks: MindHooks) => MindBundle;
}

interface SavedTown {
  sim: SimState;
  clock: ClockState;
}

export interface TickResult extends StepResult {
  /** Events as written to the log, with their sequence numbers. */
  logged: LoggedEvent[];
}

export class Town {
  readonly holds = new Set<HoldReason>();
  /** Real time since when nobody has watched, or null while someone does. Rooms keep it up to date. */
  unwatchedSinceRealMs: number | null = null;
  private lastSnapshotGameMs: number;
  private readonly listeners = new Set<(events: LoggedEvent[]) => void>();
  private pendingRuntimeEvents: EventInput[] = [];
  private closed = false;

  private constructor(
    readonly config: Config,
    readonly map: TownMap,
    readonly personas: ReadonlyMap<string, Persona>,
    readonly db: WorldDb,
    readonly sim: Simulation,
    readonly clock: SimClock,
    readonly runtime: AgentRuntime,
    readonly parts: TownParts,
    readonly resumed: boolean,
    readonly mind: Mind,
    /** The LLM stack's controls (budget, scheduler, cache), when an LLM runs. */
    readonly stack: ChatStack | null,
  ) {
    this.lastSnapshotGameMs = clock.gameMs;
  }

  /** Loads the map and personas (clear errors naming file and field), opens or resumes the world file. */
  static async open(config: Config, parts: TownParts): Promise<Town> {
    const map = loadTownMap(config.mapFile);
    const personaList = loadPersonas(config.personasDir, map);
    const personas = new Map(personaList.map((p) => [p.id as string, p]));
    fs.mkdirSync(config.dataDir, { recursive: true });
    const file = path.join(config.dataDir, `${config.world}.sqlite`);
    const db = openWorldDb(file, { model: parts.embedder.model, dimension: parts.embedder.dimension });
    try {
      const saved = db.snapshots.latest();
      let sim: Simulation;
      let clock: SimClock;
      if (saved) {
        const state = saved.state as SavedTown;
        sim = Simulation.restore(map, state.sim);
        clock = new SimClock({ ...state.clock, paused: state.clock.paused });
      } else {
        const start = startGameMs(config);
        sim = new Simulation(map, personaList.map((p) => toResident(p, map)), { seed: config.seed, startGameMs: start });
        clock = new SimClock({ gameMs: start, rate: config.rate, paused: false });
      }
      let town!: Town;
      const bundle: MindBundle = parts.createMind
        ? parts.createMind({
            db,
            gameNow: () => clock.gameMs,
            onFallback: (r) => {
              parts.logger.warn(`LLM fallback for ${r.agentId ?? 'town'} (${r.purpose}): ${r.reason}`);
              town.queueRuntimeEvents([{ gameMs: clock.gameMs, kind: 'llm.fallback', agentId: r.agentId as AgentId | null, data: { purpose: r.purpose, reason: r.reason } }]);
            },
            onBudgetPause: (message) => {
              parts.logger.warn(message);
              town.holds.add('budget');
              town.queueRuntimeEvents([{ gameMs: clock.gameMs, kind: 'budget.paused', agentId: null, data: { message } }]);
            },
            onBudgetResume: () => town.holds.delete('budget'),
          })
        : { mind: parts.mind!, runtimeSettings: parts.runtimeSettings ?? {}, stack: null };
      const runtime = new AgentRuntime({
        map,
        seed: config.seed,
        personas,
        mind: bundle.mind,
        memories: db.memories,
        embedder: parts.embedder,
        records: recordsFor(db),
        sim: { agent: (id) => sim.agent(id) },
        emit: (events) => town.queueRuntimeEvents(events),
        settings: { ...bundle.runtimeSettings, ...parts.runtimeSettings },
        onError: (request, error) => parts.logger.warn(`operation ${request.kind} failed: ${error instanceof Error ? error.message : String(error)}`),
      });
      town = new Town(config, map, personas, db, sim, clock, runtime, parts, saved !== undefined, bundle.mind, bundle.stack);
      await town.start(personaList);
      return town;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private async start(personaList: Persona[]): Promise<void> {
    const now = this.clock.gameMs;
    if (this.resumed) {
      // Personas added or removed since the world was saved join or leave now.
      const inputs: Input[] = [];
      const present = new Set(this.sim.agents().map((a) => a.spec.id as string));
      for (const p of personaList) if (!present.has(p.id)) inputs.push({ kind: 'addAgent', resident: toResident(p, this.map) });
      for (const id of present) if (!this.personas.has(id)) inputs.push({ kind: 'removeAgent', agentId: id as AgentId });
      for (const p of personaList) if (!present.has(p.id)) await this.runtime.seed(p.id, now);
      this.pendingInputs.push(...inputs);
      this.log([{ gameMs: now, kind: 'run.resumed', agentId: null, data: { mind: this.mind.label, agents: personaList.length } }]);
      this.parts.logger.info(`resumed world '${this.config.world}' at game time ${new Date(now).toISOString()} (last event #${this.db.events.lastSeq()})`);
    } else {
      for (const p of personaList) await this.runtime.seed(p.id, now);
      this.log([{ gameMs: now, kind: 'run.started', agentId: null, data: { mind: this.mind.label, agents: personaList.length, seed: this.config.seed, map: this.config.mapFile } }]);
      this.saveSnapshot();
    }
    this.flushRuntimeEvents();
  }

  private pendingInputs: Input[] = [];

  get gameMs(): number {
    return this.clock.gameMs;
  }

  /** The token that makes a client an operator (set in the config or generated at start-up). */
  get operatorToken(): string {
    return this.config.operatorToken ?? '';
  }

  /** Live mode: advance by a real-time delta, step the sim, and hand new requests to the runtime. */
  tick(realDeltaMs: number): TickResult {
    this.updateWaitingHold();
    const gameMs = this.clock.advance(realDeltaMs, this.holds.size > 0);
    const inputs = [...this.pendingInputs.splice(0), ...this.runtime.drainInputs()];
    const result = this.sim.step(gameMs, inputs);
    for (const request of result.requests) this.runtime.submit(request);
    return this.afterStep(result);
  }

  /**
   * Headless mode, deterministic: steps the sim every `stepGameMs` up to `untilGameMs`, awaiting each
   * step's operations before the next step, so a run gives the same result every time.
   */
  async runLockstep(untilGameMs: number, stepGameMs = 10_000, onStep?: (r: TickResult) => void): Promise<void> {
    let inputs: Input[] = this.pendingInputs.splice(0);
    while (this.clock.gameMs < untilGameMs) {
      const gameMs = this.clock.skip(Math.min(stepGameMs, untilGameMs - this.clock.gameMs));
      const result = this.sim.step(gameMs, inputs);
      const outputs = await Promise.all(result.requests.map((r: OperationRequest) => this.runtime.run(r)));
      inputs = outputs.flat();
      const r = this.afterStep(result);
      onStep?.(r);
    }
    this.pendingInputs.push(...inputs);
  }

  private afterStep(result: StepResult): TickResult {
    this.queueRuntimeEvents(result.events, true);
    const logged = this.flushRuntimeEvents();
    if (this.clock.gameMs - this.lastSnapshotGameMs >= this.config.snapshotEveryGameMinutes * GAME_MS_PER_MINUTE) this.saveSnapshot();
    return { ...result, logged };
  }

  /** Holds the clock while an awake agent waits for its day's plan, when the policy says to wait. */
  /**
   * With CLOCK_POLICY=wait, game time waits for cognition: while an awake agent has no plan for the
   * day yet, and while an operation has been in flight for more than MAX_MIND_LAG_GAME_MINUTES of
   * game time (so a slow endpoint slows the town instead of cutting conversations short).
   */
  private updateWaitingHold(): void {
    if (this.config.clockPolicy !== 'wait') return;
    const day = dayIndex(this.clock.gameMs);
    const minute = minuteOfDay(this.clock.gameMs);
    const oldest = this.runtime.oldestInFlightGameMs();
    const lagging = oldest !== null && this.clock.gameMs - oldest > MAX_MIND_LAG_GAME_MINUTES * GAME_MS_PER_MINUTE;
    const waiting = lagging || this.sim.agents().some((a) => a.planRequestedDay === day && a.plan?.day !== day && minute >= a.spec.wakeMinute && !a.asleep);
    if (waiting) this.holds.add('waiting-for-minds');
    else this.holds.delete('waiting-for-minds');
  }

  // ---- operator actions -----------------------------------------------------------------------

  pause(by: string): void {
    this.clock.pause();
    this.holds.add('paused');
    this.operatorEvent(by, 'pause', {});
  }

  resume(by: string): void {
    this.clock.resume();
    this.holds.delete('paused');
    this.operatorEvent(by, 'resume', {});
  }

  setRate(rate: number, by: string): void {
    this.clock.setRate(rate);
    this.operatorEvent(by, 'speed', { rate });
  }

  /** Advances a paused world by some game minutes, in one go. */
  async stepMinutes(minutes: number, by: string): Promise<void> {
    this.operatorEvent(by, 'step', { gameMinutes: minutes });
    await this.runLockstep(this.clock.gameMs + minutes * GAME_MS_PER_MINUTE);
  }

  async whisper(agentId: AgentId, text: string, by: string): Promise<void> {
    this.requireAgent(agentId);
    const memory = await this.runtime.whisper(agentId, text, this.clock.gameMs);
    this.operatorEvent(by, 'whisper', { agentId, text, memoryId: memory.id });
    this.flushRuntimeEvents();
  }

  async interview(agentId: AgentId, question: string, by: string): Promise<{ answer: string; memoryIds: number[] }> {
    this.requireAgent(agentId);
    const { answer, memories } = await this.runtime.interview(agentId, question, this.clock.gameMs);
    this.operatorEvent(by, 'interview', { agentId, question, answer });
    this.flushRuntimeEvents();
    return { answer, memoryIds: memories.map((m) => m.id) };
  }

  inject(text: string, arena: string | null, by: string): void {
    if (arena !== null && !this.map.arenasByAddress.has(arena) && !this.map.places.sectors.some((s) => s.name === arena))
      throw new Error(`no arena or sector '${arena}' in ${this.map.file}`);
    this.pendingInputs.push({ kind: 'worldEvent', description: text, arena, durationGameMs: 3 * 3_600_000 });
    this.operatorEvent(by, 'inject', { text, arena });
    this.flushRuntimeEvents();
  }

  /** Brings a persona from the personas folder into town (checked like every persona). */
  async addAgent(personaId: string, by: string): Promise<void> {
    if (this.sim.agent(personaId)) throw new Error(`'${personaId}' is already in town`);
    const file = path.join(this.config.personasDir, `${personaId}.yaml`);
    if (!fs.existsSync(file)) throw new Error(`no persona file ${file}`);
    const persona = parsePersona(fs.readFileSync(file, 'utf8'), file);
    const problems = validatePersonaAgainstMap(persona, this.map);
    if (problems.length) throw new PersonasError(problems);
    (this.personas as Map<string, Persona>).set(persona.id, persona);
    await this.runtime.seed(persona.id, this.clock.gameMs);
    this.pendingInputs.push({ kind: 'addAgent', resident: toResident(persona, this.map) });
    this.operatorEvent(by, 'add agent', { agentId: persona.id });
    this.flushRuntimeEvents();
  }

  removeAgent(agentId: AgentId, by: string): void {
    this.requireAgent(agentId);
    this.pendingInputs.push({ kind: 'removeAgent', agentId });
    this.operatorEvent(by, 'remove agent', { agentId });
    this.flushRuntimeEvents();
  }

  private requireAgent(agentId: string): void {
    if (!this.sim.agent(agentId)) throw new Error(`no agent '${agentId}'`);
  }

  private operatorEvent(by: string, action: string, data: Record<string, unknown>): void {
    this.queueRuntimeEvents([{ gameMs: this.clock.gameMs, kind: 'operator.action', agentId: null, data: { by, action, ...data } }]);
  }

  // ---- the event log --------------------------------------------------------------------------

  /** Called with every batch of events once it is in the log. */
  onEvents(listener: (events: LoggedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  queueRuntimeEvents(events: EventInput[], first = false): void {
    if (first) this.pendingRuntimeEvents = [...events, ...this.pendingRuntimeEvents];
    else this.pendingRuntimeEvents.push(...events);
  }

  private flushRuntimeEvents(): LoggedEvent[] {
    if (this.pendingRuntimeEvents.length === 0 || this.closed) return [];
    const batch = this.pendingRuntimeEvents;
    this.pendingRuntimeEvents = [];
    return this.log(batch);
  }

  private log(events: EventInput[]): LoggedEvent[] {
    const last = this.db.events.append(events);
    const first = last - events.length + 1;
    const logged = events.map((e, i) => ({ ...e, seq: first + i }));
    for (const l of this.listeners) l(logged);
    return logged;
  }

  saveSnapshot(): void {
    const state: SavedTown = { sim: this.sim.getState(), clock: this.clock.getState() };
    this.db.snapshots.save({ seq: this.db.events.lastSeq(), gameMs: this.clock.gameMs, state });
    this.lastSnapshotGameMs = this.clock.gameMs;
  }

  /** Waits for operations in flight, saves a snapshot and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.runtime.idle();
    await this.runtime.flushObservations(this.clock.gameMs);
    this.pendingInputs.push(...this.runtime.drainInputs());
    this.flushRuntimeEvents();
    this.saveSnapshot();
    this.closed = true;
    this.db.close();
  }
}
