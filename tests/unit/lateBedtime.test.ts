// A resident whose bedtime is after midnight stays up on yesterday's plan until then, then sleeps,
// and asks for the next day's plan only before its next waking.
import { describe, expect, it } from 'vitest';
import { buildTinyTown } from '../fixtures/tinyTown';
import { latenessGameMs } from '../../server/src/protocol/lateness';
import { Simulation } from '../../server/src/sim/Simulation';
import { asAgentId } from '../../server/src/world/types';
import type { DayPlan, Input, OperationRequest, ResidentSpec } from '../../server/src/sim/types';
import { dayIndex } from '../../server/src/protocol/time';

const map = buildTinyTown();
const DAY0 = Date.UTC(2026, 1, 13);
const at = (day: number, hh: number, mm = 0) => DAY0 + day * 86_400_000 + (hh * 60 + mm) * 60_000;
const owl: ResidentSpec = {
  id: asAgentId('owl'),
  name: 'Owl Tester',
  bedAddress: 'Ada House: bedroom: bed',
  wakeMinute: 7 * 60,
  sleepMinute: 30, // 00:30, after midnight
  spawnTile: 1 * map.widthTiles + 1,
  look: { skin: '#e0ac69', hair: '#222222', shirt: '#3366cc', pants: '#333333' },
};

function planFor(day: number): DayPlan {
  return {
    day,
    broadStrokes: [],
    hourBlocks: [],
    actions: [
      { startMinute: 7 * 60, durationMinutes: 16 * 60, description: 'working', emoji: '•', address: 'Cafe: cafe: counter' },
      { startMinute: 23 * 60, durationMinutes: 90, description: 'reading late', emoji: '📖', address: 'Ada House: bedroom: desk' },
    ],
  };
}

describe('a bedtime after midnight', () => {
  it('keeps the agent up on the day before until then, and plans the next day before its next waking', () => {
    const sim = new Simulation(map, [owl], { seed: 1, startGameMs: at(0, 22) });
    const requests: OperationRequest[] = [];
    let pending: Input[] = [];
    const seen = new Map<string, string>();
    for (let t = at(0, 22); t <= at(1, 7); t += 60_000) {
      const r = sim.step(t, pending);
      requests.push(...r.requests);
      pending = r.requests.flatMap((q): Input[] =>
        q.kind === 'plan'
          ? [
              { kind: 'plan', agentId: q.agentId, plan: planFor(q.day) },
              { kind: 'done', agentId: q.agentId },
            ]
          : q.kind === 'observe'
            ? [{ kind: 'done', agentId: q.agentId }]
            : [{ kind: 'conversationEnd', conversationId: q.conversationId }],
      );
      const a = sim.agent('owl')!;
      if (t === at(0, 23, 30)) seen.set('23:30', a.current.description);
      if (t === at(1, 0, 15)) seen.set('00:15', `${a.current.description} asleep=${a.asleep}`);
      if (t === at(1, 0, 45)) seen.set('00:45', `${a.current.description} asleep=${a.asleep}`);
    }
    expect(Object.fromEntries(seen)).toEqual({ '23:30': 'reading late', '00:15': 'reading late asleep=false', '00:45': 'sleeping asleep=true' });
    const plans = requests.filter((q) => q.kind === 'plan');
    expect(plans.map((q) => q.day)).toEqual([dayIndex(at(0, 0)), dayIndex(at(1, 0))]);
    // Asked PLAN_LEAD_MINUTES (3 hours) before the 07:00 waking on its own clock (it runs a few seconds
    // late, sim/stagger.ts): after the 00:30 bedtime, on the next day, at the first step past 04:00.
    expect(plans[1].gameMs).toBe(at(1, 4) + Math.ceil(latenessGameMs('owl') / 60_000) * 60_000);
  });
});
