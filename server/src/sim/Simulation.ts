// The town's rules, as one synchronous, deterministic step: time comes in as an argument, randomness
// from a seeded Rng, and anything that needs thinking leaves as an OperationRequest whose result comes
// back, later, as an Input. No I/O, no clocks, no awaits. The systems are plain functions over the
// state (schedule.ts, walking.ts, perception.ts, conversations.ts); this class only holds the state
// and runs them in order.
import type { TownMap } from '../world/types';
import { Rng } from './rng';
import type { AgentSimState, ConversationState, Input, ResidentSpec, SimState, StepResult } from './types';
import {
  createSimWorld,
  emptyResult,
  emptyState,
  indexState,
  upgradeState,
  type SimIndex,
  type SimReadView,
  type SimWorld,
  type Step,
  type StepBudget,
} from './state';
import { applyInput } from './inputs';
import { followSchedule, QuietSchedule } from './schedule';
import { DueAgents } from './dueAgents';
import { advanceConversations, startDecidedConversations } from './conversations';
import { perceive, requestObservations } from './perception';
import { renameInJson } from '../core/renameInJson';
import { walksOfNextActions, walksOfPlans, type WalkAhead } from './walksAhead';
import type { AgentId } from '../protocol/ids';

export interface SimulationOptions {
  seed: number;
  startGameMs: number;
}

/** A read-only view of an agent, for rooms, the inspector and tests. */
export type AgentView = Readonly<AgentSimState>;

export class Simulation implements SimReadView {
  readonly world: SimWorld;
  private state: SimState;
  private index: SimIndex;
  // What the constructor produced (the residents' arrival), reported by the first step.
  private carried: StepResult = emptyResult();
  private quiet = new QuietSchedule();
  /** Whose schedule may need to run: walkers, agents touched, and a wheel of when each quiet one is next due. */
  private due = new DueAgents();
  /** Runs every agent's schedule every step, passing over none (the reference the passing over is tested against). */
  scheduleEveryAgent = false;
  /** Agents' schedules passed over as quiet, and run, since this sim was made (for tests and benchmarks). */
  readonly scheduleCounts = { passed: 0, ran: 0 };
  /**
   * A live step's budget at work (state.ts StepBudget): agents' turns that waited for the next step, and the longest
   * game time an agent waited to take up an action (for benchmarks).
   */
  readonly budgetWaits = { turns: 0, longestGameMs: 0 };
  /** Agents waiting on the budget, with the game time they first waited. */
  private readonly waitingSince = new Map<AgentSimState, number>();
  /**
   * The walks whose path searches the last step's budget gave up (walking.ts walkWaits): the town loop searches them
   * between ticks (DistanceFields.searchAhead), and their agents take them up at a later step.
   */
  searchLater: readonly WalkAhead[] = [];

  constructor(map: TownMap | SimWorld, residents: readonly ResidentSpec[], options: SimulationOptions) {
    this.world = 'fields' in map ? map : createSimWorld(map);
    this.state = emptyState(options.seed, options.startGameMs, new Rng(options.seed).getState());
    this.index = indexState(this.state);
    const step = this.newStep(options.startGameMs);
    for (const resident of residents) applyInput(step, { kind: 'addAgent', resident });
    this.carried = step.out;
  }

  /** A simulation that continues exactly from `getState()` (any saved version this build reads). */
  static fromState(map: TownMap | SimWorld, saved: unknown): Simulation {
    const state = upgradeState(saved);
    const sim = new Simulation(map, [], { seed: state.seed, startGameMs: state.gameMs });
    sim.setState(state);
    return sim;
  }

  get map(): TownMap {
    return this.world.map;
  }

  getState(): SimState {
    return structuredClone(this.state);
  }

  /** The live state, not a copy: only for reading it at once (serialising a snapshot), never to keep. */
  peekState(): Readonly<SimState> {
    return this.state;
  }

  setState(state: SimState): void {
    this.waitingSince.clear();
    this.state = structuredClone(state);
    this.index = indexState(this.state);
    this.carried = emptyResult();
    this.due.all();
  }

  /**
   * Gives an agent another id everywhere in the state (its own record, partners, conversations,
   * cooldowns, intents; core/renameInJson.ts). The next step reports the old id removed and the new one
   * added, so a viewer's state follows.
   */
  renameAgent(from: string, to: string): void {
    if (!this.index.agents.has(from)) throw new Error(`no agent '${from}'`);
    if (this.index.agents.has(to)) throw new Error(`'${to}' is already in town`);
    this.state = renameInJson(this.state, from, to);
    this.index = indexState(this.state);
    this.due.all();
    this.carried.removed.push(from as AgentId);
    this.carried.added.push(to as AgentId);
  }

  get gameMs(): number {
    return this.state.gameMs;
  }

  agents(): readonly AgentView[] {
    return this.state.agents;
  }

  agent(id: string): AgentView | undefined {
    return this.index.agents.get(id);
  }

  conversation(id: number): Readonly<ConversationState> | undefined {
    return this.index.conversations.get(id);
  }

  /** The walks that these plans, applied by a step at about `nextStepGameMs`, will start (sim/walksAhead.ts); changes nothing. */
  walksOfPlans(inputs: readonly Input[], nextStepGameMs: number): WalkAhead[] {
    return walksOfPlans(this.world, this.state.seed, this.index, inputs, nextStepGameMs);
  }

  /** The walks of the next actions that begin within `horizonGameMs`, for one slice of `every` of the town (sim/walksAhead.ts); changes nothing. */
  walksOfNextActions(horizonGameMs: number, slice: number, every: number): WalkAhead[] {
    return walksOfNextActions(this.world, this.state.seed, this.state.agents, this.state.gameMs, horizonGameMs, slice, every);
  }

  /**
   * Advances the world to `gameMs`, first applying the inputs that arrived since the last step. `budget`: what a live
   * step starts at most (state.ts StepBudget); the agents whose new actions would walk past it take them up at the next steps.
   */
  step(gameMs: number, inputs: readonly Input[] = [], budget: StepBudget | null = null): StepResult {
    const state = this.state;
    const previous = state.gameMs;
    const now = Math.max(gameMs, previous);
    state.gameMs = now;
    const step = this.newStep(now, previous);
    if (budget !== null) step.budget = { ...budget, fromTiles: this.world.fields.stats.tilesSearched, searchLater: [] };
    step.out = this.carried;
    this.carried = emptyResult();
    for (const input of inputs) applyInput(step, input);
    state.worldEvents = state.worldEvents.filter((e) => e.untilGameMs > now);
    startDecidedConversations(step);
    // Only the agents that may be due (dueAgents.ts), in the town's order; of those, the quiet are passed over.
    if (this.scheduleEveryAgent) this.due.all();
    const due = this.due.take(state.agents, now, budget === null || this.scheduleEveryAgent ? Infinity : budget.firstTurns);
    let ran = 0;
    for (const agent of due ?? state.agents) {
      if (!this.scheduleEveryAgent && this.quiet.isQuiet(agent, now)) continue;
      ran++;
      if (followSchedule(step, agent)) this.ran(agent, now);
      else this.waited(agent, now);
    }
    this.scheduleCounts.ran += ran;
    this.scheduleCounts.passed += state.agents.length - ran;
    advanceConversations(step);
    perceive(step);
    requestObservations(step);
    state.rngState = step.rng.getState();
    this.searchLater = step.budget?.searchLater ?? [];
    return step.out;
  }

  /** An agent's turn is done: it is next due when its marks say. */
  private ran(agent: AgentSimState, now: number): void {
    this.due.ran(agent, this.quiet.ran(agent, now));
    if (this.waitingSince.size === 0) return;
    const since = this.waitingSince.get(agent);
    if (since === undefined) return;
    this.waitingSince.delete(agent);
    this.budgetWaits.longestGameMs = Math.max(this.budgetWaits.longestGameMs, now - since);
  }

  /** An agent whose new action waits for the next step (the budget): it is due then, and not quiet whatever its marks say. */
  protected waited(agent: AgentSimState, now: number): void {
    this.quiet.forget(agent);
    this.due.touch(agent);
    this.budgetWaits.turns++;
    if (!this.waitingSince.has(agent)) this.waitingSince.set(agent, now);
  }

  private newStep(now: number, previousGameMs = now): Step {
    return {
      world: this.world,
      state: this.state,
      index: this.index,
      now,
      previousGameMs,
      rng: new Rng(this.state.rngState),
      out: emptyResult(),
      dirtyArenas: new Set(),
      forcePerception: false,
      due: this.due,
      budget: null,
    };
  }
}
