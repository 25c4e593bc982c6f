// A live step's budget (sim/state.ts StepBudget): a step starts at most so many walks, and searches paths up to so many
// tiles; the agents whose new actions would walk past it take them up at the next steps. Over a commute wave, a budgeted town must
// take up every action the unbudgeted one does, in the same order for each agent, a few steps later at most, and end
// the wave doing the same things; the control, a budget that forgets who waited, must lose actions.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GAME_MS_PER_MINUTE } from '../../server/src/protocol/time';
import { Simulation } from '../../server/src/sim/Simulation';
import type { AgentSimState, SimState, StepResult } from '../../server/src/sim/types';
import type { StepBudget } from '../../server/src/sim/state';
import { DueAgents } from '../../server/src/sim/dueAgents';
import type { TownMap } from '../../server/src/world/types';
import { generateTown } from '../../scripts/generateTown';
import { openOfflineTown, tempDir } from '../helpers';

const STEP_GAME_MS = 6_000;
const BUDGET: StepBudget = { firstTurns: Infinity, walks: 2, searchTiles: 3_000 };

/** The control: an agent past the budget is neither due again nor un-marked as quiet. */
class ForgetsWhoWaited extends Simulation {
  protected override waited(_agent: AgentSimState, _now: number): void {}
}

interface Lived {
  /** Each agent's actions taken up, in order: [step, description, address]. */
  actions: Map<string, Array<[number, string, string]>>;
  /** Walks started (a move with a path) in each step. */
  walksPerStep: number[];
  /** Tiles each step searched (the searches between steps, of the walks it gave up, not counted). */
  tilesPerStep: number[];
  /** The steps at which each agent handed observations over (it looked around). */
  looked: Map<string, number[]>;
  /** Agents' schedules run in each step. */
  ranPerStep: number[];
  sim: Simulation;
}

function live(map: TownMap, state: SimState, budget: StepBudget | null, Sim: typeof Simulation = Simulation, forgetGivenUp = false, steps = 400): Lived {
  const sim = new Sim(map, [], { seed: state.seed, startGameMs: state.gameMs });
  sim.setState(state);
  const fields = sim.world.fields;
  const lived: Lived = { actions: new Map(), walksPerStep: [], tilesPerStep: [], looked: new Map(), ranPerStep: [], sim };
  for (let i = 0; i < steps; i++) {
    const stepStart = fields.stats.tilesSearched;
    const ranBefore = sim.scheduleCounts.ran;
    const result: StepResult = sim.step(sim.gameMs + STEP_GAME_MS, [], budget);
    lived.tilesPerStep.push(fields.stats.tilesSearched - stepStart);
    lived.ranPerStep.push(sim.scheduleCounts.ran - ranBefore);
    for (const r of result.requests) if (r.kind === 'observe') lived.looked.set(r.agentId, [...(lived.looked.get(r.agentId) ?? []), i]);
    // As the town loop does between ticks: the walks whose searches the budget gave up are searched.
    if (!forgetGivenUp) for (const walk of sim.searchLater) fields.searchAhead(walk.from, walk.to);
    let n = 0;
    for (const e of result.events) {
      if (e.kind === 'agent.move' && (e.data as { path: number[] }).path.length > 1) n++;
      if (e.kind !== 'agent.action') continue;
      const data = e.data as { description: string; address: string };
      const list = lived.actions.get(e.agentId!) ?? [];
      list.push([i, data.description, data.address]);
      lived.actions.set(e.agentId!, list);
    }
    lived.walksPerStep.push(n);
  }
  return lived;
}

/**
 * Steps an action may come after the unbudgeted town's. The budget is far below the town's waves here (2 walks a step
 * against up to 6), so a wave's backlog builds over its minutes: 20 steps (2 game minutes) at most on this town and seed.
 */
const MAX_LAG_STEPS = 30;

/** Agents whose actions differ from the reference's (what, or in what order), and how many steps later the rest came. */
function lagsAgainst(reference: Lived, other: Lived): { differ: string[]; waited: number; maxLag: number } {
  const differ: string[] = [];
  let waited = 0;
  let maxLag = 0;
  for (const [agent, ref] of reference.actions) {
    const got = other.actions.get(agent) ?? [];
    const what = (l: Array<[number, string, string]>) => JSON.stringify(l.map(([, d, a]) => [d, a]));
    if (what(got) !== what(ref)) {
      differ.push(agent);
      continue;
    }
    for (let k = 0; k < ref.length; k++) {
      const lag = got[k][0] - ref[k][0];
      if (lag < 0) differ.push(agent);
      if (lag > 0) waited++;
      maxLag = Math.max(maxLag, lag);
    }
  }
  return { differ, waited, maxLag };
}

describe("a live step's budget", () => {
  it('spreads a commute wave over the next steps, losing no action; a budget that forgets who waited loses some', async () => {
    const dir = tempDir('smalltown-budget-');
    generateTown({ agents: 120, outDir: dir, seed: 7 });
    // The town's plans made (lockstep, with the offline mind) up to a quarter to eight; then the sim alone, no budget
    // against a budget, through the morning's commute.
    const town = await openOfflineTown({ mapFile: path.join(dir, 'town.tmj'), personasDir: path.join(dir, 'personas'), startTime: '2026-02-13T05:30' });
    try {
      await town.loop.runLockstep(town.gameMs + 135 * GAME_MS_PER_MINUTE, 10_000);
      const state = town.sim.getState();
      const reference = live(town.sim.map, state, null);
      const budgeted = live(town.sim.map, state, BUDGET);
      const control = live(town.sim.map, state, BUDGET, ForgetsWhoWaited);

      // The wave is bigger than the budget: some step of the reference starts more walks, and the budgeted steps never do.
      expect(Math.max(...reference.walksPerStep)).toBeGreaterThanOrEqual(3 * BUDGET.walks);
      expect(Math.max(...budgeted.walksPerStep)).toBe(BUDGET.walks);
      // A step's searches stop about where they reach the budget's tiles (a search is given up after the layer that
      // passes them); the unbudgeted steps search more than twice as much.
      expect(Math.max(...budgeted.tilesPerStep)).toBeLessThan(BUDGET.searchTiles * 1.2);
      expect(Math.max(...reference.tilesPerStep)).toBeGreaterThan(BUDGET.searchTiles * 2);

      // Every agent takes up the same actions in the same order, each no earlier and at most a few steps later.
      const budgetedLags = lagsAgainst(reference, budgeted);
      expect(budgetedLags.differ).toEqual([]);
      expect(budgetedLags.waited).toBeGreaterThan(20);
      expect(budgetedLags.maxLag).toBeLessThanOrEqual(MAX_LAG_STEPS);
      // The sim's own count of it (what the benchmark reports): the longest wait is the longest lag.
      expect(reference.sim.budgetWaits.turns).toBe(0);
      expect(budgeted.sim.budgetWaits.turns).toBeGreaterThanOrEqual(budgetedLags.waited);
      expect(budgeted.sim.budgetWaits.longestGameMs).toBe(budgetedLags.maxLag * STEP_GAME_MS);
      // And ends the morning doing the same things, where the same things put it.
      const doing = (l: Lived) => l.sim.agents().map((a) => [a.spec.id, a.current.description, a.current.address, a.actionIndex, a.asleep]);
      expect(doing(budgeted)).toEqual(doing(reference));

      // The control: agents past its budget are passed over as quiet and fall out of the due wheel until something else
      // touches them, so actions go missing or come late.
      const controlLags = lagsAgainst(reference, control);
      expect(controlLags.differ.length).toBeGreaterThan(0);
      // The second control: nobody searches the given-up walks between steps, and their agents wait on.
      const stuck = live(town.sim.map, state, BUDGET, Simulation, true);
      expect(lagsAgainst(reference, stuck).differ.length).toBeGreaterThan(0);
    } finally {
      await town.close();
    }
  }, 120_000);

  it("gives a new world's agents their first turns a slice a step, each looking around only after its own", async () => {
    const dir = tempDir('smalltown-first-turns-');
    generateTown({ agents: 120, outDir: dir, seed: 7 });
    // A new world, as it opens (nothing stepped): everyone is due, nobody asleep yet.
    const town = await openOfflineTown({ mapFile: path.join(dir, 'town.tmj'), personasDir: path.join(dir, 'personas'), startTime: '2026-02-13T06:30' });
    try {
      const state = town.sim.getState();
      const slice: StepBudget = { firstTurns: 10, walks: Infinity, searchTiles: Infinity };
      const steps = 60;
      const reference = live(town.sim.map, state, null, Simulation, false, steps);
      const budgeted = live(town.sim.map, state, slice, Simulation, false, steps);

      // The reference runs everyone's schedule at once; the budgeted steps 10 first turns each, until all had theirs.
      expect(reference.ranPerStep[0]).toBe(120);
      expect(budgeted.ranPerStep[0]).toBe(10);
      const firstActionSteps = [...budgeted.actions.values()].map((l) => l[0][0]);
      // (The awake ones with no plan yet take nothing up: they stand as they are until their routine or plan.)
      expect(firstActionSteps.length).toBe(reference.actions.size);
      expect(firstActionSteps.length).toBeGreaterThan(100);
      for (let k = 0; k < 12; k++) expect(firstActionSteps.filter((at) => at <= k).length).toBeLessThanOrEqual(10 * (k + 1));
      expect(Math.max(...firstActionSteps)).toBe(11);
      // The same actions in the same order, each no earlier and at most the 12 steps the slices take later.
      const lags = lagsAgainst(reference, budgeted);
      expect(lags.differ).toEqual([]);
      expect(lags.maxLag).toBeGreaterThan(0);
      expect(lags.maxLag).toBeLessThanOrEqual(11);
      // Nobody looks around before its first turn (not yet asleep, it would see its bedroom). After it, the sleepers
      // sleep, and the awake wait for their plans (busy): nobody here looks in the sim alone, with no mind answering.
      const lookedEarly = (l: Lived) => [...l.looked].filter(([agent, at]) => at[0] < (l.actions.get(agent)?.[0][0] ?? Infinity)).map(([agent]) => agent);
      expect(lookedEarly(reference)).toEqual([]);
      expect(lookedEarly(budgeted)).toEqual([]);
      const doing = (l: Lived) => l.sim.agents().map((a) => [a.spec.id, a.current.description, a.current.address, a.actionIndex, a.asleep]);
      expect(doing(budgeted)).toEqual(doing(reference));

      // The control: agents whose first turn is still to come look around as if it had come.
      vi.spyOn(DueAgents.prototype, 'beforeFirstTurn').mockReturnValue(false);
      const control = live(town.sim.map, state, slice, Simulation, false, steps);
      expect(lookedEarly(control).length).toBeGreaterThan(10);
    } finally {
      vi.restoreAllMocks();
      await town.close();
    }
  }, 120_000);
});
