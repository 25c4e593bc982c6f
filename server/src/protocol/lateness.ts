// Each agent runs a fixed lateness behind the clock on its schedule (server/src/sim/stagger.ts): it
// wakes, sleeps and takes up each planned action that much after the minute. The page shows the plan
// step in force on the agent's own clock, so it agrees with the action the agent is doing.
import { hashString } from './hash';

/** Agents run up to this late: a town whose plans all change at 9:00 starts its walks over a game minute. */
export const SCHEDULE_STAGGER_GAME_MS = 60_000;

/** How late an agent runs, fixed per agent (from its id), in [0, SCHEDULE_STAGGER_GAME_MS). */
export function latenessGameMs(agentId: string): number {
  return hashString(agentId) % SCHEDULE_STAGGER_GAME_MS;
}

/** The game time on the agent's own clock: what its schedule follows at `gameMs`. */
export function ownClockGameMs(agentId: string, gameMs: number): number {
  return gameMs - latenessGameMs(agentId);
}
