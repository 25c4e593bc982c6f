import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import { OfflineMind, planFromRoutine, rateImportanceHeuristically } from '../../server/src/agent/offlineMind';
import type { Memory } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';
import { parseClock } from '../../server/src/world/clockText';

const map = loadTownMap('maps/town.tmj');
const personas = new Map(loadPersonas('personas', map).map((p) => [p.id as string, p]));
const isabella = personas.get('isabella')!;
const claire = personas.get('claire')!;
const FEB13 = Math.floor(Date.UTC(2026, 1, 13) / 86_400_000);
const memory = (id: number, description: string, importance = 8, extra: Partial<Memory> = {}): Memory => ({ id, agentId: asAgentId('isabella'), kind: 'observation', description, createdGameMs: 0, lastAccessedGameMs: 0, importance, triple: null, evidenceIds: [], ...extra });
const ctx = (persona = isabella, gameMs = Date.UTC(2026, 1, 13, 10, 0)) => ({ agent: { persona, currentAction: 'serving customers', currentPlace: 'Hobbs Cafe: cafe: counter', plan: planFromRoutine(persona, map, 1, FEB13) }, map, gameMs, seed: 1, names: new Map([...personas].map(([id, p]) => [id, p.name])), relationships: new Map(Object.entries(persona.relationships)) });

describe('the offline mind', () => {
  it('plans the waking day in 5-60 minute actions at real places, differently from day to day', () => {
    for (const p of personas.values()) {
      const plan = planFromRoutine(p, map, 1, FEB13);
      expect(plan.actions[0].startMinute).toBe(parseClock(p.wakeAt));
      const last = plan.actions[plan.actions.length - 1];
      expect(last.startMinute + last.durationMinutes).toBe(parseClock(p.sleepAt));
      plan.actions.forEach((a, i) => {
        expect(map.arenasByAddress.has(a.address) || map.objectsByAddress.has(a.address), a.address).toBe(true);
        expect(a.durationMinutes).toBeGreaterThanOrEqual(5);
        if (i > 0) expect(a.startMinute).toBe(plan.actions[i - 1].startMinute + plan.actions[i - 1].durationMinutes);
      });
    }
    const days = [0, 1, 2, 3].map((d) => JSON.stringify(planFromRoutine(personas.get('freya')!, map, 1, FEB13 + d).actions));
    expect(new Set(days).size).toBeGreaterThan(1);
  });

  it('goes to a gathering it remembers on its day', () => {
    const party = memory(1, 'Isabella Rivera is planning a Valentine\u2019s Day party at Hobbs Cafe on February 14 at 5pm.', 8, { createdGameMs: FEB13 * 86_400_000 });
    const onTheDay = planFromRoutine(claire, map, 1, FEB13 + 1, [party]);
    expect(onTheDay.actions).toContainEqual(expect.objectContaining({ startMinute: 17 * 60, description: 'attending the party at Hobbs Cafe', address: 'Hobbs Cafe: cafe' }));
    expect(planFromRoutine(claire, map, 1, FEB13, [party]).actions.some((a) => a.description.includes('party'))).toBe(false);
  });

  it('rates importance with its keyword table', () => {
    expect(rateImportanceHeuristically('Ruth Bennett is sleeping')).toBe(1);
    expect(rateImportanceHeuristically('Omar Haddad is stacking shelves')).toBe(2);
    expect(rateImportanceHeuristically('There is a party at the pub')).toBe(8);
    expect(rateImportanceHeuristically('There was a fire at the shop')).toBe(9);
  });

  it('talks with content: a greeting, then news that the partner did not tell it, then plans and goodbye', async () => {
    const mind = new OfflineMind();
    const news = [memory(7, 'Omar Haddad wants to start home deliveries.', 7)];
    const lines: Array<{ speaker: string; speakerName: string; text: string }> = [];
    for (let turn = 0; turn < 8; turn++) {
      const [me, other] = turn % 2 === 0 ? [isabella, claire] : [claire, isabella];
      const out = await mind.converseTurn(ctx(me), { partner: other, relationship: me.relationships[other.id] ?? null, memories: [], news: me === isabella ? news : [], history: lines, turn, maxTurns: 8 });
      lines.push({ speaker: me.id, speakerName: me.name, text: out.text });
      if (out.end) break;
    }
    expect(lines[0].text).toMatch(/^(Good morning, Claire|Claire!)/);
    expect(lines.some((l) => l.text.endsWith('Omar Haddad wants to start home deliveries.'))).toBe(true);
    expect(lines.filter((l) => l.text.includes('home deliveries'))).toHaveLength(1);
    const summary = await mind.summariseConversation({ contexts: [ctx(), ctx(claire)], lines, relationships: [isabella.relationships.claire, claire.relationships.isabella] });
    expect(summary.learned.claire).toContain('Omar Haddad wants to start home deliveries.');
  });

  it('reflects on recurring memories and cites them', async () => {
    const mind = new OfflineMind();
    const seen = [1, 2, 3].map((i) => memory(i, 'Claire Moreau is shelving books', 2, { triple: { subject: 'Claire Moreau', predicate: 'is', object: 'shelving books' } }));
    const [question] = await mind.reflectQuestions(ctx(), seen);
    expect(question).toBe('What has Claire Moreau been up to lately?');
    const insights = await mind.reflectInsights(ctx(), question, seen);
    expect(insights[0]).toEqual({ text: 'Claire Moreau is often shelving books.', evidence: [1, 2, 3] });
  });
});
