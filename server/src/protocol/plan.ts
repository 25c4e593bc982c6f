// A day's plan, as the paper has it: broad strokes, hour blocks, and 5-15 minute actions at places of
// the place tree. Shared by the sim (which follows it), cognition (which makes it), the store, the
// inspector and replay in the browser (which show the step in force).

/** One 5-15 minute action of a day's plan. */
export interface PlannedAction {
  /** Minute of the day, 0..1439. */
  startMinute: number;
  durationMinutes: number;
  /** What the agent does, e.g. "brewing coffee". */
  description: string;
  emoji: string;
  /** Place-tree address without the world: "Hobbs Cafe: cafe: counter" (object) or "Hobbs Cafe: cafe" (arena). */
  address: string;
}

export interface HourBlock {
  startMinute: number;
  durationMinutes: number;
  activity: string;
}

export interface DayPlan {
  day: number;
  /** The broad strokes: "1) wake up and get ready at 6:30am, 2) ...". */
  broadStrokes: string[];
  hourBlocks: HourBlock[];
  actions: PlannedAction[];
}

/** A plan without its hour blocks: what the sim keeps and shows (the blocks stay in the log and the plans table). */
export type PlanOfActions = Pick<DayPlan, 'day' | 'broadStrokes' | 'actions'>;

/** Cells an action takes in a kept plan: start minute, duration, description, emoji, address (the log's packed rows' order). */
const CELLS = 5;

/**
 * A day's plan as the sim holds it (each agent's state, and the snapshots): the day, its broad strokes, and its actions
 * flat in one list, `CELLS` cells an action. A town of 10,000 holds 10,000 such lists where it held 600,000 action
 * objects, which every major collection walked (BENCHMARKS.md, round 15). Made only by `keepPlan` and `spliceKept`,
 * and never changed: a replan makes a new one. Read with the `kept…` functions, or `planOfKept` for the objects.
 */
export interface KeptPlan {
  day: number;
  broadStrokes: string[];
  cells: Array<number | string>;
}

export function keepPlan(plan: PlanOfActions): KeptPlan {
  return { day: plan.day, broadStrokes: plan.broadStrokes, cells: keptCells(plan.actions) };
}

function keptCells(actions: readonly PlannedAction[]): Array<number | string> {
  const cells: Array<number | string> = new Array(actions.length * CELLS);
  let i = 0;
  for (const a of actions) {
    cells[i++] = a.startMinute;
    cells[i++] = a.durationMinutes;
    cells[i++] = a.description;
    cells[i++] = a.emoji;
    cells[i++] = a.address;
  }
  return cells;
}

export const keptCount = (plan: KeptPlan): number => plan.cells.length / CELLS;
export const keptStart = (plan: KeptPlan, i: number): number => plan.cells[i * CELLS] as number;
export const keptAddress = (plan: KeptPlan, i: number): string => plan.cells[i * CELLS + 4] as string;

/** The action at index `i` of a kept plan, as a new object. */
export function keptAction(plan: KeptPlan, i: number): PlannedAction {
  const c = plan.cells;
  const at = i * CELLS;
  return {
    startMinute: c[at] as number,
    durationMinutes: c[at + 1] as number,
    description: c[at + 2] as string,
    emoji: c[at + 3] as string,
    address: c[at + 4] as string,
  };
}

/** The plan with its actions as objects (new ones at each call), for cognition and the inspector. */
export function planOfKept(plan: KeptPlan): PlanOfActions {
  const actions = new Array<PlannedAction>(keptCount(plan));
  for (let i = 0; i < actions.length; i++) actions[i] = keptAction(plan, i);
  return { day: plan.day, broadStrokes: plan.broadStrokes, actions };
}

/** `findActionIndex` over a kept plan. */
export function findKeptIndex(plan: KeptPlan, minute: number): number {
  const c = plan.cells;
  return indexInForce(
    keptCount(plan),
    (i) => c[i * CELLS] as number,
    (i) => c[i * CELLS + 1] as number,
    minute,
  );
}

/** `splicePlan` over a kept plan: a new kept plan, the same day and broad strokes. */
export function spliceKept(plan: KeptPlan, fromMinute: number, replacement: readonly PlannedAction[]): KeptPlan {
  return { ...plan, cells: keptCells(splicePlan(planOfKept(plan).actions, fromMinute, replacement)) };
}

/** Whether an agent who wakes at `wakeMinute` and sleeps at `sleepMinute` is up at `minute` (bedtimes after midnight wrap). */
export function isAwake(minute: number, wakeMinute: number, sleepMinute: number): boolean {
  return wakeMinute < sleepMinute ? minute >= wakeMinute && minute < sleepMinute : minute >= wakeMinute || minute < sleepMinute;
}

/** Index of the action in force at `minute`, or -1. Actions are sorted and do not overlap. */
export function findActionIndex(actions: readonly PlannedAction[], minute: number): number {
  return indexInForce(
    actions.length,
    (i) => actions[i].startMinute,
    (i) => actions[i].durationMinutes,
    minute,
  );
}

/** Index of the one of `count` sorted, non-overlapping actions (read through `start` and `duration`) in force at `minute`, or -1. */
function indexInForce(count: number, start: (i: number) => number, duration: (i: number) => number, minute: number): number {
  // The last action that starts at or before `minute`, by binary search: the sim asks for every agent every step.
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (start(mid) <= minute) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && minute < start(found) + duration(found) ? found : -1;
}

/** Keeps the actions before `fromMinute` (cutting the one that spans it) and appends the new ones. */
export function splicePlan(actions: readonly PlannedAction[], fromMinute: number, replacement: readonly PlannedAction[]): PlannedAction[] {
  const kept: PlannedAction[] = [];
  for (const a of actions) {
    if (a.startMinute >= fromMinute) break;
    const end = Math.min(a.startMinute + a.durationMinutes, fromMinute);
    kept.push({ ...a, durationMinutes: end - a.startMinute });
  }
  return [...kept, ...replacement.filter((a) => a.startMinute >= fromMinute)];
}

/**
 * The re-plan that fits `inserted` into a day: the new action, then the rest of the day as it was from
 * its end on (the action it ends inside is shortened). Hand it to `splicePlan` from `inserted.startMinute`.
 */
export function fitAction(actions: readonly PlannedAction[], inserted: PlannedAction): PlannedAction[] {
  const until = inserted.startMinute + inserted.durationMinutes;
  const rest = actions
    .filter((a) => a.startMinute + a.durationMinutes > until)
    .map((a) => (a.startMinute < until ? { ...a, startMinute: until, durationMinutes: a.startMinute + a.durationMinutes - until } : a));
  return [inserted, ...rest];
}
