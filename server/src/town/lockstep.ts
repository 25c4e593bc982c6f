// Lockstep steps (headless runs, tests, the operator's "step"): the sim steps every few game seconds and each step's
// operations are awaited before the next, so a run gives the same result every time. Whole distance fields are
// searched as they are earned, and each step's snapshot is written before the next step.
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { Input } from '../sim/types';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { TickResult, TownPersistence } from './persistence';

/** Game time between two lockstep steps, unless the caller says otherwise. */
export const LOCKSTEP_GAME_MS = 10_000;

export interface LockstepParts {
  sim: Simulation;
  clock: SimClock;
  runtime: AgentRuntime;
  persistence: TownPersistence;
  /** Whether the town closed: the step in progress is the last. */
  stopped: () => boolean;
  /** Resolves once every queued request has been handed to cognition. */
  drained: () => Promise<void>;
  /** Takes the inputs from outside cognition (operators, arrivals) waiting for the next step. */
  takePending: () => Input[];
}

/**
 * Steps the sim every `stepGameMs` up to `untilGameMs`, awaiting each step's operations before the next. Operations
 * already in flight finish first. Returns the inputs no step applied (those the last step's operations handed back).
 */
export async function stepInLockstep(p: LockstepParts, untilGameMs: number, stepGameMs: number, onStep?: (r: TickResult) => void): Promise<Input[]> {
  const { sim, clock, runtime, persistence } = p;
  // Steps that wait for their operations have no time between ticks: whole fields are searched as they are earned.
  sim.world.fields.deferWholeFields = false;
  // A snapshot a live tick started is captured before any step of this run (TownPersistence.startSnapshot).
  await persistence.snapshotInProgress;
  await p.drained();
  await runtime.idle();
  let inputs: Input[] = [...p.takePending(), ...runtime.drainInputs()];
  while (clock.gameMs < untilGameMs && !p.stopped()) {
    const gameMs = clock.skip(Math.min(stepGameMs, untilGameMs - clock.gameMs));
    // The room may show the new time while the step's operations are awaited: commit it first.
    persistence.markClock();
    const result = sim.step(gameMs, inputs);
    const outputs = await Promise.all(result.requests.map((r) => runtime.run(r)));
    inputs = [...outputs.flat(), ...p.takePending()];
    const ticked = persistence.commitStep(result);
    // A lockstep run in a town that ticked live (an operator's steps): its commits no longer checkpoint the WAL either.
    if (persistence.tickedLive) persistence.checkpointLater();
    // The same snapshots as a run whose steps wait for nothing else: each is written before the next step.
    await persistence.snapshotInProgress;
    onStep?.(ticked);
  }
  return inputs;
}
