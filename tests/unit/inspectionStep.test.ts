// The inspector's highlighted plan step and its header come from one state: the step the agent took up
// with the action it shows, also at a moment between a step's minute and the sim's tick that takes it up
// (issue 46: a replay paused there showed "chatting with a passer-by" over "10:35 watering the flower beds").
import { describe, expect, it } from 'vitest';
import { buildInspection } from '../../server/src/history/inspection';
import { keepPlan, type PlannedAction } from '../../server/src/protocol/plan';
import { latenessGameMs } from '../../server/src/protocol/lateness';
import type { AgentSimState } from '../../server/src/sim/types';

const DAY_MS = Date.UTC(2026, 1, 13);
const at = (h: number, m: number, s = 0) => DAY_MS + ((h * 60 + m) * 60 + s) * 1000;
const step = (startMinute: number, durationMinutes: number, description: string): PlannedAction => ({
  startMinute,
  durationMinutes,
  description,
  emoji: '🌻',
  address: 'Johnson Park: park: garden',
});

/** Arthur at `atGameMs`, doing `description` since `sinceGameMs`, with a plan of chatting at 10:20 and watering at 10:35. */
function inspectArthur(description: string, sinceGameMs: number, atGameMs: number) {
  const actions = [step(600, 20, 'weeding the garden'), step(620, 15, 'chatting with a passer-by'), step(635, 5, 'watering the flower beds')];
  const agent = {
    spec: { id: 'arthur', name: 'Arthur Johnson', wakeMinute: 6 * 60, sleepMinute: 22 * 60 },
    plan: keepPlan({ day: Math.floor(DAY_MS / 86_400_000), broadStrokes: [], actions }),
    current: { description, emoji: '🌻', address: 'Johnson Park: park: garden', startGameMs: sinceGameMs },
    asleep: false,
  } as unknown as AgentSimState;
  const reply = buildInspection({
    agent,
    persona: null,
    atGameMs,
    scored: [],
    recent: [],
    thoughts: [],
    evidenceOf: () => undefined,
    relationships: [],
    conversations: [],
    llm: { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 },
  });
  return { header: reply.action.description, step: reply.plan!.actions[reply.plan!.currentIndex]?.description };
}

describe('the inspector’s step in force', () => {
  const late = latenessGameMs('arthur');

  it('is the step of the action shown, between the step’s minute on the agent’s clock and the tick that takes it up', () => {
    // 10:35 has come on Arthur's own clock, one second ago; the sim's tick that takes up watering is still to come.
    const now = at(10, 35) + late + 1000;
    const seen = inspectArthur('chatting with a passer-by', at(10, 20) + late + 2000, now);
    expect(seen.step).toBe(seen.header);
  });

  it('moves on with the action once the agent takes the next step up', () => {
    const seen = inspectArthur('watering the flower beds', at(10, 35) + late + 4000, at(10, 36));
    expect(seen).toEqual({ header: 'watering the flower beds', step: 'watering the flower beds' });
  });

  it('falls back to the clock when the action is none of the plan’s', () => {
    expect(inspectArthur('getting ready for the day', at(9, 0), at(10, 25) + late).step).toBe('chatting with a passer-by');
  });
});
