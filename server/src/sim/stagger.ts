// Staggering: work that a town would otherwise do all in one step is spread over steps, by giving each
// agent its own fixed lateness (from its id). An agent runs its schedule that late (it wakes, sleeps,
// asks for its plan and takes up each planned action up to SCHEDULE_STAGGER_GAME_MS after the minute),
// and looks around on its own perception turns. A thousand agents whose plans change at 9:00 then walk
// off over a game minute (ten steps at 1×), not in one step; the occupants of a busy arena take turns
// to look. Pure functions of the agent and the step's times, so a saved state goes on exactly the same.
import * as C from './constants';
import { latenessGameMs } from '../protocol/lateness';
import type { Step } from './state';

/** How late an agent runs on its schedule, fixed per agent, in [0, SCHEDULE_STAGGER_GAME_MS) (protocol/lateness.ts). */
export { latenessGameMs };

/** Whether the agent's own clock passed a perception turn in this step (every step, when steps are that long). */
export function perceptionTurn(step: Step, agentId: string): boolean {
  const late = latenessGameMs(agentId);
  return Math.floor((step.now - late) / C.PERCEPTION_TURN_GAME_MS) !== Math.floor((step.previousGameMs - late) / C.PERCEPTION_TURN_GAME_MS);
}
