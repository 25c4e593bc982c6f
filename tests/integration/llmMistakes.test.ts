// Real models' mistakes, one at a time, over real HTTP from the faulty model double: each is read,
// mended, repaired or retried as the LLM mind promises, never turned into a fallback when a clean repair
// is possible, and never left in the cache. Then llm:check against the double in each response format.
import { afterEach, describe, expect, it } from 'vitest';
import { workingContext } from '../helpers';
import { MISTAKES, OpenAIStub, TRANSPORT_FAULTS, type Fault } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { OpenAIChatModel } from '../../server/src/llm/OpenAIChatModel';
import { buildChatStack } from '../../server/src/llm/stack';
import { ArrayCallLog, MapResponseCache } from '../../server/src/llm/memoryStores';
import { Pricing } from '../../server/src/llm/pricing';
import { LlmMind } from '../../server/src/agent/LlmMind';
import { acceptorFor, type MendReport } from '../../server/src/agent/llmAsk';
import { purgeInvalidReplies } from '../../server/src/llm/CachingChatModel';
import { extractJson } from '../../server/src/llm/replyJson';
import { mendToSchema, readClock } from '../../server/src/llm/tolerance';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import type { MindContext } from '../../server/src/agent/mind';
import { failingPurposes, runLlmCheck } from '../../scripts/llmCheck';

const map = loadTownMap('maps/town.tmj');
const personas = loadPersonas('personas', map, () => {});
const isabella = personas.find((p) => p.id === 'isabella')!;
const ctx: MindContext = workingContext(isabella, personas, map);
const noSleep = async () => undefined;

let stub: OpenAIStub;
afterEach(async () => stub?.close());

async function mindOver(faults: Fault[]) {
  stub = installTownResponders(await new OpenAIStub({ faults, hangMs: 400 }).start());
  const adapter = new OpenAIChatModel({ baseURL: stub.url, models: { default: 'stub-model' }, responseFormat: 'json_schema', timeoutMs: 250 });
  const cache = new MapResponseCache();
  const stack = buildChatStack(adapter, {
    modelFor: () => 'stub-model',
    cache,
    log: new ArrayCallLog(),
    pricing: new Pricing({}),
    budget: { tokens: 0, usd: 0 },
    concurrency: 4,
    requestsPerMinute: 0,
    tokensPerMinute: 0,
    maxRetries: 3,
    sleep: noSleep,
  });
  const mends: MendReport[] = [];
  const fallbacks: string[] = [];
  const mind = new LlmMind({ model: stack.model, label: 'test', onMend: (m) => mends.push(m), onFallback: (f) => fallbacks.push(f.reason) });
  return { mind, cache, mends, fallbacks };
}

describe('each mistake of a real model, alone', () => {
  for (const fault of [...MISTAKES, ...TRANSPORT_FAULTS, 'malformed'] as const) {
    it(`${fault}: handled without a fallback, and the cache holds only valid replies`, async () => {
      const { mind, cache, mends, fallbacks } = await mindOver([fault]);
      const questions = await mind.reflectQuestions(ctx, []);
      expect(questions).toEqual(['What matters most lately?', 'Who have I been seeing?', 'What is coming up?'].slice(0, questions.length));
      expect(questions.length).toBeGreaterThanOrEqual(2);
      expect(fallbacks).toEqual([]);
      const t = mind.tallyOf('reflect');
      expect(t.fellBack).toBe(0);
      // Content mistakes cost at most one more request; transport faults are retried below the mind.
      if ((TRANSPORT_FAULTS as readonly string[]).includes(fault)) expect(t.requests).toBe(1);
      else expect(t.requests).toBeLessThanOrEqual(2);
      expect(stub.stats.faults[fault]).toBe(1);
      const how = mends.map((m) => m.how);
      if (['empty', 'refusal', 'malformed', 'missing_key'].includes(fault)) expect(how).toContain('repair');
      if (fault === 'cut_off') expect(how).toContain('longer');
      if (['out_of_range', 'wrong_count', 'extra_key'].includes(fault) || fault === 'wrong_type') expect(t.repaired + t.mended + t.valid).toBe(1);
      // Every cached entry passes its schema: purging finds nothing to drop.
      expect(cache.map.size).toBe(1);
      expect(purgeInvalidReplies(cache, acceptorFor)).toBe(0);
    });
  }

  it('a reply still wrong after two repair turns falls back, counted, and caches nothing', async () => {
    const { mind, cache, fallbacks } = await mindOver(['refusal', 'empty', 'refusal']);
    const questions = await mind.reflectQuestions(ctx, []); // the offline mind's
    expect(questions.length).toBeGreaterThan(0);
    expect(questions).not.toContain('What matters most lately?');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(/unusable after 2 repair turns/);
    expect(mind.tallyOf('reflect')).toMatchObject({ asks: 1, requests: 3, fellBack: 1 });
    expect(cache.map.size).toBe(0);
  });

  it('ratings out of range are clamped and a short list is padded, with notes, not a fallback', async () => {
    const { mind, mends, fallbacks } = await mindOver(['out_of_range']);
    const ratings = await mind.rateImportance(ctx, ['Isabella is planning a party', 'Isabella made coffee']);
    expect(ratings.every((r) => r >= 1 && r <= 10)).toBe(true);
    expect(mends.some((m) => m.how === 'mend' && /clamped to 10/.test(m.note))).toBe(true);
    const { mind: m2, mends: mends2 } = await (async () => (await stub.close(), mindOver(['wrong_count'])))();
    expect(await m2.rateImportance(ctx, ['Isabella is planning a party', 'Isabella made coffee', 'Isabella read'])).toHaveLength(3);
    expect(mends2.some((m) => /2 ratings for 3 items/.test(m.note))).toBe(true);
    expect(fallbacks).toEqual([]);
  });
});

describe('a summary that still fails', () => {
  it("leaves each speaker the other's lines, reported as said by their teller, so an invitation a model wrote is still heard", async () => {
    const { mind, fallbacks } = await mindOver(['refusal', 'refusal', 'refusal']);
    const claire = personas.find((p) => p.id === 'claire')!;
    const cctx: MindContext = { ...ctx, agent: { ...ctx.agent, persona: claire } };
    const invitation = "Come to my Valentine's Day party at Hobbs Cafe tomorrow at 5pm!";
    const summary = await mind.summariseConversation({
      contexts: [ctx, cctx],
      lines: [
        { speaker: isabella.id, speakerName: isabella.name, text: invitation },
        { speaker: claire.id, speakerName: claire.name, text: 'I would love to come.' },
      ],
      relationships: [null, null],
    });
    expect(fallbacks).toHaveLength(1);
    // In the teller's person (agent/grammar.ts report): retold later, "my party" is still Isabella's, "I" still Claire.
    expect(summary.learned[claire.id]).toContain("Come to Isabella Rivera's Valentine's Day party at Hobbs Cafe tomorrow at 5pm!");
    expect(summary.learned[isabella.id]).toContain('Claire Moreau would love to come.');
    expect(summary.learned[isabella.id].join(' ')).not.toMatch(/Valentine/);
  });
});

describe('the cache', () => {
  it('drops, when a world opens, entries its schema no longer accepts or that name no schema', () => {
    const cache = new MapResponseCache();
    cache.put('good', JSON.stringify({ text: '{"answer":"Hi"}', model: 'm', schemaName: 'interview_reply' }));
    cache.put('bad', JSON.stringify({ text: '{"answer":""}', model: 'm', schemaName: 'interview_reply' }));
    cache.put('old', JSON.stringify({ text: '{"answer":"Hi"}', model: 'm' }));
    cache.put('junk', 'not json');
    expect(purgeInvalidReplies(cache, acceptorFor)).toBe(3);
    expect([...cache.map.keys()]).toEqual(['good']);
  });
});

describe('reading and mending a reply', () => {
  it('reads JSON out of thinking, prose, fences, trailing commas, single quotes and a cut tail', () => {
    expect(extractJson('<think>hmm {"a": 2}</think>\nHere: ```json\n{"a": 1,}\n``` done').json).toEqual({ a: 1 });
    expect(extractJson("{'a': 'x', 'b': [1, 2,]}").json).toEqual({ a: 'x', b: [1, 2] });
    expect(extractJson('{"a": [1, 2').json).toEqual({ a: [1, 2] });
    expect(() => extractJson("I'm sorry, I can't do that.")).toThrow(/holds no JSON/);
    expect(() => extractJson('')).toThrow(/empty/);
  });

  it('clamps, converts, drops unusable elements and trims, and rejects what has nothing usable', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          maxItems: 2,
          minItems: 1,
          items: { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 60 }, at: { type: 'string', pattern: '^\\d{1,2}:\\d{2}$' } } },
        },
      },
      required: ['items'],
      additionalProperties: false,
    };
    const mended = mendToSchema(
      {
        items: [
          { n: '90', at: '9:30 pm' },
          { n: 'x', at: '10:00' },
          { n: 3, at: '11:00' },
          { n: 7, at: '12:00' },
        ],
        extra: 1,
      },
      schema,
    );
    expect(mended!.value).toEqual({
      items: [
        { n: 60, at: '21:30' },
        { n: 5, at: '11:00' },
      ],
    });
    expect(mended!.notes.join('\n')).toMatch(/clamped to 60[\s\S]*\[1\]: unusable, dropped[\s\S]*trimmed to 2[\s\S]*extra key extra dropped/);
    expect(mendToSchema({ items: [{ n: 'x', at: '1' }] }, schema)).toBeNull();
    expect(readClock('9am')).toBe('09:00');
    expect(readClock('12:15 AM')).toBe('00:15');
    expect(readClock('noon')).toBeNull();
  });
});

describe('npm run llm:check against the double', () => {
  for (const formats of [['json_schema', 'json_object'], ['json_object'], []] as const) {
    const expected = formats.length === 2 ? 'json_schema' : formats.length === 1 ? 'json_object' : 'none';
    it(`finds ${expected} when the server knows ${formats.join(' and ') || 'neither'}, and passes`, async () => {
      stub = installTownResponders(await new OpenAIStub({ formats }).start());
      const report = await runLlmCheck({ baseURL: stub.url, model: 'stub-model', repeat: 1, sleep: noSleep });
      expect(report.mode).toBe(expected);
      expect(report.rows.every((r) => r.fellBack === 0)).toBe(true);
      expect(report.rows.filter((r) => r.asks > 0).map((r) => r.purpose)).toEqual(
        expect.arrayContaining(['importance', 'plan', 'decompose', 'react', 'converse', 'summarise', 'reflect', 'interview']),
      );
      expect(failingPurposes(report, 0)).toEqual([]);
    });
  }

  it('fails (a purpose above the share) when every reply and every repair is a refusal', async () => {
    stub = installTownResponders(await new OpenAIStub({ mistakeRate: 1, mistakes: ['refusal'], faultyRepairs: true }).start());
    const report = await runLlmCheck({ baseURL: stub.url, model: 'stub-model', repeat: 1, sleep: noSleep });
    expect(failingPurposes(report, 0.2).length).toBeGreaterThan(0);
    expect(report.rows.find((r) => r.purpose === 'interview')).toMatchObject({ asks: 1, fellBack: 1, requests: 3 });
  });
});

describe('token budgets', () => {
  it('start at the floor or the schema shape, grow with replies seen and thinking, and double after a cut', async () => {
    const { TokenBudgets, longerBudget } = await import('../../server/src/agent/llmAsk');
    const b = new TokenBudgets();
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect(b.budgetFor('x', 300, schema)).toBe(300);
    expect(b.budgetFor('x', 1, schema)).toBeGreaterThan(1);
    b.observe('x', 400, 0);
    expect(b.budgetFor('x', 300)).toBe(600);
    b.observe('x', 10, 4000);
    expect(b.budgetFor('x', 300)).toBe(600 + 1250);
    expect(b.budgetFor('y', 300)).toBe(300);
    expect(longerBudget(100, 0)).toBe(612);
    expect(longerBudget(1000, 400)).toBe(2100);
  });
});
