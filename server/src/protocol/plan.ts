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

/** Whether an agent who wakes at `wakeMinute` and sleeps at `sleepMinute` is up at `minute` (bedtimes after midnight wrap). */
export function isAwake(minute: number, wakeMinute: number, sleepMinute: number): boolean {
  return wakeMinute < sleepMinute ? minute >= wakeMinute && minute < sleepMinute : minute >= wakeMinute || minute < sleepMinute;
}

/** Index of the action in force at `minute`, or -1. Actions are sorted and do not overlap. */
export function findActionIndex(actions: readonly PlannedAction[], minute: number): number {
  // The last action that starts at or before `minute`, by binary search: the sim asks for every agent every step.
  let lo = 0;
  let hi = actions.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (actions[mid].startMinute <= minute) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && minute < actions[found].startMinute + actions[found].durationMinutes ? found : -1;
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
