// What an operator can do to a running town. Each command is checked, applied through the loop or the
// runtime, and logged as an `operator.action` event naming who did it.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../protocol/ids';
import type { EventData } from '../protocol/events';
import type { AddablePersona } from '../protocol/api';
import { GAME_MS_PER_HOUR, GAME_MS_PER_MINUTE } from '../protocol/time';
import type { TownMap } from '../world/types';
import { checkPersonaText, loadPersonaFile, personaIdOf, readPersonaText, type Persona } from '../world/persona';
import { personaIdProblem } from '../protocol/ids';
import { renameInJson } from '../core/renameInJson';
import type { WorldDb } from '../store/WorldDb';
import { renameAgentInWorld, worldHoldsAgent, type RenameCounts } from '../store/renameAgent';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { ClockHolds } from './holds';
import type { TownLog } from './log';
import type { TownLoop } from './loop';
import { personaEvent, residentChanged, toResident } from './residents';
import { PersonaFolder } from './personaFiles';
import type { Logger } from './logger';

/** How long an injected world event stays perceivable. */
export const WORLD_EVENT_GAME_MS = 3 * GAME_MS_PER_HOUR;

export interface CommandParts {
  personasDir: string;
  map: TownMap;
  personas: Map<string, Persona>;
  sim: Simulation;
  clock: SimClock;
  runtime: AgentRuntime;
  loop: TownLoop;
  log: TownLog;
  holds: ClockHolds;
  logger: Logger;
  db: WorldDb;
}

/** Why a rename was refused: the field it is about (`id`: the persona renamed, `to`: the new id) and an HTTP status. */
export class RenameRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly field: 'id' | 'to',
    message: string,
  ) {
    super(message);
    this.name = 'RenameRefusal';
  }
}

export interface RenameResult {
  from: string;
  to: string;
  /** The persona file's new path. */
  file: string;
  /** Whether the agent lives in the town (its state went with it). */
  inTown: boolean;
  /** What was rewritten in the world file, or null when it held nothing of that id. */
  rewritten: RenameCounts | null;
  /** Other persona files whose relationships named the old id (now the new one). */
  relationshipsIn: string[];
}

export class OperatorCommands {
  /** Personas being seeded for `addAgent`. */
  private readonly adding = new Set<string>();
  /** Whispers and interviews under way: they write an agent's memories outside the loop, so a rename waits for them. */
  private readonly asking = new Set<Promise<unknown>>();
  /** A rename is rewriting ids: whispers, interviews and additions wait for another moment. */
  private renaming = false;

  constructor(private readonly p: CommandParts) {}

  pause(by: string): void {
    this.p.clock.pause();
    this.p.holds.operatorPaused(true);
    this.record(by, { action: 'pause' });
  }

  resume(by: string): void {
    this.p.clock.resume();
    this.p.holds.operatorPaused(false);
    this.record(by, { action: 'resume' });
  }

  setRate(rate: number, by: string): void {
    this.p.clock.setRate(rate);
    this.record(by, { action: 'speed', rate });
  }

  /** Advances the world by some game minutes in one lockstep run (live ticks wait meanwhile). */
  async step(minutes: number, by: string): Promise<void> {
    // Refused before it is logged: the log holds what was done.
    this.p.loop.refuseSecondLockstep();
    this.record(by, { action: 'step', gameMinutes: minutes });
    await this.p.loop.runLockstep(this.p.clock.gameMs + minutes * GAME_MS_PER_MINUTE);
  }

  async whisper(agentId: AgentId, text: string, by: string): Promise<void> {
    this.requireAgent(agentId);
    this.refuseWhileRenaming();
    const memory = await this.track(this.p.runtime.whisper(agentId, text, this.p.clock.gameMs));
    this.record(by, { action: 'whisper', agentId, text, memoryId: memory.id });
  }

  async interview(agentId: AgentId, question: string, by: string): Promise<{ answer: string; memoryIds: number[] }> {
    this.requireAgent(agentId);
    this.refuseWhileRenaming();
    const { answer, memories } = await this.track(this.p.runtime.interview(agentId, question, this.p.clock.gameMs));
    this.record(by, { action: 'interview', agentId, question, answer });
    return { answer, memoryIds: memories.map((m) => m.id) };
  }

  /** A world event at an arena or sector (or everywhere, when null), perceived by those there. */
  inject(text: string, arena: string | null, by: string): void {
    const { map } = this.p;
    if (arena !== null && !map.arenasByAddress.has(arena) && !map.places.sectors.some((s) => s.name === arena))
      throw new Error(`no arena or sector '${arena}' in ${map.file}`);
    this.p.loop.enqueue({ kind: 'worldEvent', description: text, arena, durationGameMs: WORLD_EVENT_GAME_MS });
    this.record(by, { action: 'inject', text, arena });
  }

  /**
   * Brings a persona from the personas folder into town (checked like every persona). It appears at
   * `spawn` (a spawn point of the map) when given, else where it would at start-up, and starts its day.
   */
  async addAgent(personaId: string, by: string, options: { spawn?: string } = {}): Promise<Persona> {
    const { sim, map, personas, loop } = this.p;
    if (sim.agent(personaId)) throw new Error(`'${personaId}' is already in town`);
    // From the first ask until the sim has the agent (its next step), a second ask is refused: it would seed it twice.
    const queued = loop.hasPending((i) => i.kind === 'addAgent' && i.resident.id === personaId);
    if (this.adding.has(personaId) || queued) throw new Error(`'${personaId}' is already being added`);
    if (this.renaming) throw new Error('a persona is being renamed: add the agent again in a moment');
    this.adding.add(personaId);
    try {
      const { persona, warnings } = loadPersonaFile(this.p.personasDir, personaId, map, personas.keys());
      const resident = toResident(persona, map, options.spawn);
      for (const w of warnings) this.p.logger.warn(w.message);
      personas.set(persona.id, persona);
      await this.p.runtime.seed([persona.id], this.p.clock.gameMs);
      this.p.log.queue([personaEvent(persona, this.p.clock.gameMs)]);
      loop.enqueue({ kind: 'addAgent', resident });
      this.record(by, { action: 'add agent', agentId: persona.id, name: persona.name });
      return persona;
    } finally {
      this.adding.delete(personaId);
    }
  }

  /** The persona files not in town, each with what stops it from being added (read-only). */
  addablePersonas(): AddablePersona[] {
    const { personasDir, sim, map } = this.p;
    const out: AddablePersona[] = [];
    for (const { id, file: f } of new PersonaFolder(personasDir).list()) {
      if (sim.agent(id)) continue;
      const file = path.join(personasDir, f);
      const checked = checkPersonaText(fs.readFileSync(file, 'utf8'), file, map, new Set([...this.p.personas.keys(), id]));
      const name = checked.persona?.name ?? checked.draft.name ?? null;
      out.push({ id, name, file: f, problems: checked.errors.map((e) => e.message.replace(file, f)) });
    }
    return out;
  }

  /**
   * A checked new persona for an agent in town (its file was saved). The mind reads it from its next
   * thought, so its next plan follows the new routine; the day planned already is kept. Its name,
   * look, bed and hours take over when that next plan is asked for (Input `updateResident`). Seed
   * memories are not written again: they started a stream that has lived since.
   */
  updatePersona(persona: Persona, by: string): void {
    const { sim, map, personas, clock } = this.p;
    const agent = sim.agent(persona.id);
    if (!agent) throw new Error(`no agent '${persona.id}'`);
    const resident = toResident(persona, map);
    personas.set(persona.id, persona);
    this.p.log.queue([personaEvent(persona, clock.gameMs)]);
    if (residentChanged(agent.nextSpec ?? agent.spec, resident)) this.p.loop.enqueue({ kind: 'updateResident', resident });
    this.record(by, { action: 'edit persona', agentId: persona.id, name: persona.name });
  }

  removeAgent(agentId: AgentId, by: string): void {
    this.requireAgent(agentId);
    this.p.loop.enqueue({ kind: 'removeAgent', agentId });
    this.record(by, { action: 'remove agent', agentId, name: this.p.sim.agent(agentId)?.spec.name });
  }

  /**
   * Gives a persona another id: its file moves to `<to>.yaml`, and when this world holds history of it
   * (it lives in town, or did), the world file is rewritten in one transaction so that every record
   * (memories and their vectors, events, snapshots, plans, conversations, relationships) reads with the
   * new id, marked by an `agent.renamed` event; the live agent keeps its place, plan, conversation and
   * memories. Other persona files' relationships follow. Runs while no step runs and nothing is in
   * flight. Refused (RenameRefusal) for an id that is not one, reserved, or taken in the folder, the
   * town or this world's history.
   */
  async renameAgent(from: string, to: string, by: string): Promise<RenameResult> {
    const folder = new PersonaFolder(this.p.personasDir);
    const toProblem = personaIdProblem(to);
    if (toProblem) throw new RenameRefusal(400, 'to', `'${to.slice(0, 80)}' is not a persona id: ${toProblem}`);
    if (personaIdProblem(from) || !folder.exists(from)) throw new RenameRefusal(404, 'id', `there is no ${from.slice(0, 80)}.yaml in the persona folder`);
    if (to === from) throw new RenameRefusal(400, 'to', `the id is '${from}' already`);
    if (this.renaming) throw new RenameRefusal(409, 'id', 'another rename is under way: try again in a moment');
    this.renaming = true;
    try {
      return await this.p.loop.exclusive(() => this.renameExclusively(from, to, by));
    } finally {
      this.renaming = false;
    }
  }

  private async renameExclusively(from: string, to: string, by: string): Promise<RenameResult> {
    const { sim, personas, loop, runtime, log, clock, db } = this.p;
    const folder = new PersonaFolder(this.p.personasDir);
    // A whisper or an interview started before the rename writes its memory first, under the old id.
    await Promise.allSettled([...this.asking]);
    if (folder.exists(to)) throw new RenameRefusal(409, 'to', `'${to}' is taken: ${path.basename(folder.pathOf(to))} is in the persona folder`);
    if (sim.agent(to) || personas.has(to)) throw new RenameRefusal(409, 'to', `'${to}' is taken: an agent in town has it`);
    if (worldHoldsAgent(db, to)) throw new RenameRefusal(409, 'to', `'${to}' is taken: this world's history holds a former resident of that id`);
    if (this.adding.has(from) || loop.hasPending((i) => i.kind === 'addAgent' && i.resident.id === from))
      throw new RenameRefusal(409, 'id', `'${from}' is being added to the town: rename it once it has arrived`);
    await runtime.flushObservations(clock.gameMs);
    log.flush();
    const text = folder.read(from)!;
    const name = personas.get(from)?.name ?? readPersonaText(text, folder.pathOf(from)).draft.name ?? from;
    const inTown = sim.agent(from) !== undefined;
    const written = folder.write(to, text, { overwrite: false });
    let rewritten: RenameCounts | null = null;
    const action = { by, action: 'rename agent' as const, agentId: to, from, name };
    try {
      if (inTown || worldHoldsAgent(db, from))
        rewritten = renameAgentInWorld(db, from, to, () =>
          log.write([
            { gameMs: clock.gameMs, kind: 'agent.renamed', agentId: to as AgentId, data: { from, to, name } },
            { gameMs: clock.gameMs, kind: 'operator.action', agentId: null, data: action },
          ]),
        );
      else log.write([{ gameMs: clock.gameMs, kind: 'operator.action', agentId: null, data: action }]);
    } catch (error) {
      fs.rmSync(written.file, { force: true });
      throw error;
    }
    folder.remove(from);
    const relationshipsIn = folder.renameRelationships(from, to);
    if (inTown) {
      sim.renameAgent(from, to);
      loop.rewritePending((input) => renameInJson(input, from, to));
      runtime.renameAgent(from, to);
    }
    for (const [id, p] of [...personas]) {
      const renamed = id === from ? { ...p, id: to as AgentId, file: written.file } : p;
      const relationships = from in p.relationships ? Object.assign(Object.create(null), renameInJson({ ...p.relationships }, from, to)) : p.relationships;
      if (id === from) personas.delete(from);
      personas.set(renamed.id, { ...renamed, relationships });
    }
    if (rewritten) loop.saveSnapshot();
    return { from, to, file: written.file, inTown, rewritten, relationshipsIn };
  }

  private refuseWhileRenaming(): void {
    if (this.renaming) throw new Error('a persona is being renamed: ask again in a moment');
  }

  /** Runs a whisper or an interview, known to a rename (which waits for it to end). */
  private async track<T>(work: Promise<T>): Promise<T> {
    this.asking.add(work);
    try {
      return await work;
    } finally {
      this.asking.delete(work);
    }
  }

  private requireAgent(agentId: string): void {
    if (!this.p.sim.agent(agentId)) throw new Error(`no agent '${agentId}'`);
  }

  private record(by: string, data: Omit<EventData['operator.action'], 'by'>): void {
    this.p.log.write([{ gameMs: this.p.clock.gameMs, kind: 'operator.action', agentId: null, data: { by, ...data } }]);
  }
}
