// Each agent runs a fixed lateness behind the clock on its schedule (server/src/sim/stagger.ts): it
// wakes, sleeps and takes up each planned action that much after the minute. The page shows the plan
// step in force on the agent's own clock, so it agrees with the action the agent is doing.
import { hashString } from './hash';

/** Agents run up to this late: a town whose plans all change at 9:00 starts its walks over a game minute. */
export const SCHEDULE_STAGGER_GAME_MS = 60_000;

/** Lateness by agent id: the sim asks for every agent's own clock every step (a hash of the id each time at 10,000). */
const lateness = new Map<string, number>();

/** How late an agent runs, fixed per agent (from its id), in [0, SCHEDULE_STAGGER_GAME_MS). */
export function latenessGameMs(agentId: string): number {
  let ms = lateness.get(agentId);
  if (ms === undefined) {
    ms = hashString(agentId) % SCHEDULE_STAGGER_GAME_MS;
    // Bounded: ids come and go with renames and added agents over a long run.
    if (lateness.size >= 100_000) lateness.clear();
    lateness.set(agentId, ms);
  }
  return ms;
}

/** The game time on the agent's own clock: what its schedule follows at `gameMs`. */
export function ownClockGameMs(agentId: string, gameMs: number): number {
  return gameMs - latenessGameMs(agentId);
}
