// What a live tick takes of the inputs that came (town/tickInputs.ts tickInputsOf): PLAN_INPUTS_PER_TICK plans at most; the
// plans past it wait, with every later input of their agents and conversations, and everyone else's go on. The
// control is the rule it replaced, under which everything after the last plan taken waited: the ends of operations and
// the talks of agents with no plan waiting were held behind a morning's queue of plans.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tickInputsOf } from '../../server/src/town/tickInputs';
import type { Input } from '../../server/src/sim/types';
import type { AgentId } from '../../server/src/protocol/ids';
import type { DayPlan } from '../../server/src/protocol/plan';

const PLAN: DayPlan = { day: 0, broadStrokes: [], hourBlocks: [], actions: [] };
const id = (s: string) => s as AgentId;
const plan = (a: string): Input => ({ kind: 'plan', agentId: id(a), plan: PLAN });
const done = (a: string): Input => ({ kind: 'done', agentId: id(a) });
const talk = (a: string, b: string): Input => ({ kind: 'talk', agentId: id(a), partnerId: id(b), basis: 'met' as never });
const line = (c: number, a: string): Input => ({ kind: 'utterance', conversationId: c, speaker: id(a), text: 'hi' });
const end = (c: number): Input => ({ kind: 'conversationEnd', conversationId: c });
const alarm: Input = { kind: 'worldEvent', description: 'an alarm', arena: null, durationGameMs: 60_000 };
const restarted: Input = { kind: 'restarted' };

/** The rule this replaced: everything from the plan past the cap on waits. */
function everythingAfterWaits(inputs: Input[], maxPlans: number): { taken: Input[]; waiting: Input[] } {
  let plans = 0;
  for (let i = 0; i < inputs.length; i++) {
    if (inputs[i].kind !== 'plan' || ++plans <= maxPlans) continue;
    return { taken: inputs.slice(0, i), waiting: inputs.slice(i) };
  }
  return { taken: inputs, waiting: [] };
}

/** The agents and conversation an input is about, as the rule reads them. */
function about(input: Input): { agents: string[]; talk: number | null } {
  const agents =
    input.kind === 'talk' ? [input.agentId, input.partnerId] : input.kind === 'utterance' ? [input.speaker] : 'agentId' in input ? [input.agentId] : [];
  const talk = input.kind === 'utterance' || input.kind === 'conversationEnd' ? input.conversationId : null;
  return { agents, talk };
}

describe("a live tick's inputs", () => {
  it('takes 32 plans; the plans past them wait with their agents’ and conversations’ later inputs, and the rest go on', () => {
    const plans = Array.from({ length: 40 }, (_, i) => plan(`p${i}`));
    const inputs = [
      ...plans.slice(0, 34),
      done('p1'), // its plan taken: goes on
      done('p33'), // its plan waits: waits after it
      talk('x', 'y'),
      talk('a', 'p32'), // its partner's plan waits
      line(5, 'p33'),
      end(5), // its conversation's line waits
      line(6, 'x'),
      end(6),
      alarm,
      ...plans.slice(34),
      done('x'),
    ];
    const { taken, waiting } = tickInputsOf(inputs, 32);
    expect(taken).toEqual([...plans.slice(0, 32), done('p1'), talk('x', 'y'), line(6, 'x'), end(6), alarm, done('x')]);
    expect(waiting).toEqual([plans[32], plans[33], done('p33'), talk('a', 'p32'), line(5, 'p33'), end(5), ...plans.slice(34)]);

    // The control holds back the talk, the lines and the end of operation of agents with no plan waiting.
    const control = everythingAfterWaits(inputs, 32);
    expect(control.waiting).toContainEqual(done('x'));
    expect(control.waiting).toContainEqual(talk('x', 'y'));
  });

  it('takes everything when no more than 32 plans came, and keeps a restart after all that waits before it', () => {
    const few = [plan('a'), done('b'), talk('c', 'd'), plan('e')];
    expect(tickInputsOf(few, 32)).toEqual({ taken: few, waiting: [] });
    const many = [...Array.from({ length: 33 }, (_, i) => plan(`p${i}`)), restarted, done('z'), plan('q')];
    const { taken, waiting } = tickInputsOf(many, 32);
    expect(taken).toEqual(many.slice(0, 32));
    expect(waiting).toEqual(many.slice(32));
  });

  it('over any inputs: at most 32 plans, each agent and conversation in order, and nothing waits without a reason', () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const anInput = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...names).map(plan) },
      fc.constantFrom(...names).map(done),
      fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)).map(([a, b]) => talk(a, b)),
      fc.tuple(fc.nat(3), fc.constantFrom(...names)).map(([c, a]) => line(c, a)),
      fc.nat(3).map(end),
      fc.constant(alarm),
      fc.constant(restarted),
    );
    const holds = (split: typeof tickInputsOf) =>
      fc.property(fc.array(anInput, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (generated, max) => {
        // Each input its own object (the alarm and the restart are shared constants), so that it is known by identity.
        const inputs = generated.map((i) => ({ ...i }));
        const { taken, waiting } = split(inputs, max);
        expect([...taken, ...waiting].length).toBe(inputs.length);
        expect(taken.filter((i) => i.kind === 'plan').length).toBeLessThanOrEqual(max);
        // In the order they came, within each part.
        const rank = new Map(inputs.map((input, k) => [input, k]));
        const order = (part: Input[]) => part.map((i) => rank.get(i)!);
        for (const part of [taken, waiting]) expect(order(part)).toEqual([...order(part)].sort((p, q) => p - q));
        const firstWaiting = new Map<string, number>();
        let restartAt = Infinity;
        for (const input of waiting) {
          const k = rank.get(input)!;
          if (input.kind === 'restarted') restartAt = Math.min(restartAt, k);
          const { agents, talk: c } = about(input);
          for (const key of [...agents, ...(c === null ? [] : [`#${c}`])]) if (!firstWaiting.has(key)) firstWaiting.set(key, k);
        }
        for (const input of taken) {
          const k = rank.get(input)!;
          const { agents, talk: c } = about(input);
          // Nothing taken comes after an input of the same agent or conversation that waits, nor after a waiting restart.
          for (const key of [...agents, ...(c === null ? [] : [`#${c}`])]) expect(k).toBeLessThan(firstWaiting.get(key) ?? Infinity);
          expect(k).toBeLessThan(restartAt);
        }
        // Whatever waits had to: a plan past the cap, or an earlier waiting input of its own, or a restart.
        const takenPlans = taken.filter((i) => i.kind === 'plan').length;
        for (const input of waiting) {
          const k = rank.get(input)!;
          const { agents, talk: c } = about(input);
          const earlier = [...agents, ...(c === null ? [] : [`#${c}`])].some((key) => (firstWaiting.get(key) ?? Infinity) < k);
          const restart = input.kind === 'restarted' || restartAt < k;
          expect(earlier || restart || (input.kind === 'plan' && takenPlans === max)).toBe(true);
        }
      });
    fc.assert(holds(tickInputsOf), { numRuns: 500 });
    // The control: under the old rule, inputs wait with no reason of their own.
    expect(fc.check(holds(everythingAfterWaits), { numRuns: 500 }).failed).toBe(true);
  });
});
