// The step looks only at the agents that may be due (sim/dueAgents.ts): walkers, agents something touched, and a
// timing wheel of the game time each quiet agent is next due. Each must come out on time, and a town stepped so must
// live the day a town that looks at everyone lives; a wheel that loses an agent must be caught by that comparison.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DueAgents } from '../../server/src/sim/dueAgents';
import type { AgentSimState } from '../../server/src/sim/types';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { openOfflineTown } from '../helpers';

function agent(id: string, walking = false): AgentSimState {
  return { spec: { id }, movement: walking ? { path: [0, 1], startGameMs: 0, tilesPerGameMinute: 1 } : null } as unknown as AgentSimState;
}

const ids = (list: AgentSimState[] | null) => list?.map((a) => a.spec.id) ?? null;

describe('DueAgents', () => {
  it('wakes each quiet agent at the first step at or past its due time, never before, in the town order', () => {
    const town = [agent('a'), agent('b'), agent('c'), agent('d')];
    const due = new DueAgents();
    // A new tracker has everyone due.
    expect(due.take(town, 0)).toBeNull();
    due.ran(town[2], 60_000);
    due.ran(town[0], 6_500);
    due.ran(town[1], 12_000);
    due.ran(town[3], 600_000);
    expect(ids(due.take(town, 6_000))).toEqual([]);
    // 6,500 is in the slot of 6,000–6,999: due at 6,500, not at 6,400.
    expect(ids(due.take(town, 6_400))).toEqual([]);
    expect(ids(due.take(town, 6_500))).toEqual(['a']);
    expect(ids(due.take(town, 11_999))).toEqual([]);
    // A long step passes many slots at once, and gives everyone due by then in the town's order.
    expect(ids(due.take(town, 3_600_000))).toEqual(['b', 'c', 'd']);
    expect(ids(due.take(town, 3_606_000))).toEqual([]);
  });

  it('keeps walkers due every step, gives touched agents once, and forgets agents that left town', () => {
    const town = [agent('a'), agent('b', true), agent('c')];
    const due = new DueAgents();
    due.take(town, 0);
    for (const a of town) due.ran(a, 120_000);
    expect(ids(due.take(town, 6_000))).toEqual(['b']);
    due.touch(town[2]);
    due.touch(town[0]);
    expect(ids(due.take(town, 12_000))).toEqual(['a', 'b', 'c']);
    expect(ids(due.take(town, 18_000))).toEqual(['b']);
    // b stops walking: from then on it is due when the wheel says.
    (town[1] as { movement: unknown }).movement = null;
    due.ran(town[1], 30_000);
    expect(ids(due.take(town, 24_000))).toEqual([]);
    expect(ids(due.take(town, 30_000))).toEqual(['b']);
    // c leaves town (a new list, as the reducer makes one): touched or due, it is not run.
    due.touch(town[2]);
    const left = town.filter((a) => a.spec.id !== 'c');
    expect(ids(due.take(left, 36_000))).toEqual([]);
    expect(ids(due.take(left, 120_000))).toEqual(['a']);
    due.all();
    expect(due.take(left, 126_000)).toBeNull();
  });

  it("gives everyone's first turns a slice a step when asked to: walkers at once, touched ones early, nobody twice", () => {
    const town = [agent('a'), agent('b'), agent('c', true), agent('d'), agent('e'), agent('f'), agent('g')];
    const due = new DueAgents();
    // Fewer than the slice: everyone at once, as without one.
    expect(due.take(town, 0, 7)).toBeNull();
    due.all();
    // The walker now, and two first turns a step in the town's order; the others have theirs to come.
    expect(ids(due.take(town, 0, 2))).toEqual(['a', 'b', 'c']);
    expect(town.map((a) => due.beforeFirstTurn(a))).toEqual([false, false, false, true, true, true, true]);
    for (const a of town.slice(0, 3)) due.ran(a, 600_000);
    // f is touched before its turn: it has it now, with the slice's two, and is not given another.
    due.touch(town[5]);
    expect(ids(due.take(town, 6_000, 2))).toEqual(['c', 'd', 'e', 'f']);
    // g leaves town before its turn; then nobody is left to have one.
    const left = town.filter((a) => a.spec.id !== 'g');
    expect(ids(due.take(left, 12_000, 2))).toEqual(['c']);
    expect(town.map((a) => due.beforeFirstTurn(a))).toEqual(Array(7).fill(false));
    expect(ids(due.take(left, 18_000, 2))).toEqual(['c']);
  });
});

describe('a town stepped by its due agents', () => {
  afterEach(() => vi.restoreAllMocks());

  async function morning(everyAgent: boolean, lose?: string): Promise<{ events: unknown[]; ran: number; passed: number }> {
    if (lose) {
      // The control: a wheel that loses one agent (never due again unless something touches it).
      const ran = DueAgents.prototype.ran;
      vi.spyOn(DueAgents.prototype, 'ran').mockImplementation(function (this: DueAgents, a: AgentSimState, dueGameMs: number) {
        if (a.spec.id !== lose) ran.call(this, a, dueGameMs);
      });
    }
    const town = await openOfflineTown({ startTime: '2026-02-13T05:00' });
    try {
      town.sim.scheduleEveryAgent = everyAgent;
      const events: unknown[] = [];
      await town.loop.runLockstep(town.gameMs + 4 * GAME_MS_PER_HOUR, 6_000, (r) => events.push(...r.events.map((e) => [e.gameMs, e.kind, e.agentId, e.data])));
      return { events, ...town.sim.scheduleCounts };
    } finally {
      await town.close();
    }
  }

  it('lives the morning that looking at everyone lives; a wheel that loses an agent does not', async () => {
    const reference = await morning(true);
    const due = await morning(false);
    expect(reference.events.length).toBeGreaterThan(150);
    expect(due.events).toEqual(reference.events);
    // Most schedules are never looked at (1× steps: an agent's minute turns every tenth step at most).
    expect(due.ran / (due.ran + due.passed)).toBeLessThan(0.4);
    const victim = (reference.events.find((e) => (e as unknown[])[1] === 'agent.action') as unknown[])[2] as string;
    const lost = await morning(false, victim);
    expect(lost.events).not.toEqual(reference.events);
    const of = (events: unknown[]) => events.filter((e) => (e as unknown[])[2] === victim).length;
    expect(of(lost.events)).toBeLessThan(of(reference.events));
  }, 180_000);
});
