import { describe, expect, it } from 'vitest';
import { workingContext } from '../helpers';
import { CLOCK_GRID_MAX, clockGrid, withItemEnums, withLength, withNameOrNull } from '../../server/src/agent/replyShape';
import { jsonSchemaOf } from '../../server/src/agent/llmAsk';
import { AppraiseReply, HourBlocksReply } from '../../server/src/agent/prompts';
import { compactJsonGrammar, grammarSchema } from '../../server/src/llm/embedded';
import type { ChatModel, ChatRequest } from '../../server/src/llm/types';
import type { Persona } from '../../server/src/world/persona';

describe('a reply schema narrowed to the town and the day', () => {
  it('lists the clock times of a span on its grid, past midnight wrapped, and widens the step of a long span', () => {
    expect(clockGrid(7 * 60, 9 * 60, 30)).toEqual(['07:00', '07:30', '08:00', '08:30']);
    expect(clockGrid(23 * 60 + 10, 25 * 60, 30)).toEqual(['23:30', '00:00', '00:30']);
    const long = clockGrid(6 * 60, 22 * 60, 5);
    expect(long.length).toBeLessThanOrEqual(CLOCK_GRID_MAX);
    expect(long.slice(0, 3)).toEqual(['06:00', '06:20', '06:40']);
  });

  it('holds the named string properties of each item to enums, leaves the rest, and keeps the enum through the grammar', () => {
    const base = jsonSchemaOf(HourBlocksReply);
    const narrowed = withItemEnums(base, 'blocks', { start: ['07:00', '07:30'], place: ['Hobbs Cafe: cafe'] });
    const item = (narrowed.properties as never as { blocks: { items: { properties: Record<string, Record<string, unknown>> } } }).blocks.items.properties;
    expect(item.start).toEqual({ type: 'string', enum: ['07:00', '07:30'] });
    expect(item.place).toEqual({ type: 'string', enum: ['Hobbs Cafe: cafe'] });
    expect(item.activity).toEqual(
      (base.properties as never as { blocks: { items: { properties: Record<string, unknown> } } }).blocks.items.properties.activity,
    );
    const grammar = grammarSchema(narrowed) as never as { properties: { blocks: { items: { properties: Record<string, unknown> } } } };
    expect(grammar.properties.blocks.items.properties.start).toEqual({ enum: ['07:00', '07:30'] });
    // Control: without the enum, the grammar has only a length bound for the clock.
    const plain = grammarSchema(base) as never as { properties: { blocks: { items: { properties: Record<string, Record<string, unknown>> } } } };
    expect(plain.properties.blocks.items.properties.start.enum).toBeUndefined();
    const capped = withItemEnums(base, 'blocks', {}, 8) as { properties: { blocks: { maxItems: number; minItems: number } } };
    expect(capped.properties.blocks).toMatchObject({ maxItems: 8, minItems: 3 });
    expect((withItemEnums(base, 'blocks', {}, 1) as typeof capped).properties.blocks.maxItems).toBe(3);
    const short = withItemEnums(base, 'blocks', {}, undefined, { activity: 60 }) as never as {
      properties: { blocks: { items: { properties: Record<string, Record<string, unknown>> } } };
    };
    expect(short.properties.blocks.items.properties.activity).toMatchObject({ type: 'string', maxLength: 60 });
    expect(() => withItemEnums(base, 'blocks', {}, undefined, { nowhere: 3 })).toThrow(/'blocks\[\]\.nowhere' is not a string property/);
    expect(() => withItemEnums(base, 'actions', { start: [] })).toThrow(/no array of objects at 'actions'/);
    expect(() => withItemEnums(base, 'blocks', { nowhere: ['x'] })).toThrow(/'blocks\[\]\.nowhere' is not a string property/);
  });

  it('holds whom to talk to to the people here or null (null alone with nobody here), and the ratings to one per observation', () => {
    const base = jsonSchemaOf(AppraiseReply);
    const props = (s: Record<string, unknown>) => s.properties as Record<string, Record<string, unknown>>;
    const here = withNameOrNull(withLength(base, 'ratings', 3), 'talkTo', ['Ruth Bennett', 'Arthur Bennett']);
    expect(props(here).talkTo).toEqual({ type: ['string', 'null'], enum: ['Ruth Bennett', 'Arthur Bennett', null] });
    expect(props(here).ratings).toMatchObject({ type: 'array', minItems: 3, maxItems: 3 });
    expect(props(withNameOrNull(base, 'talkTo', [])).talkTo).toEqual({ type: 'null' });
    expect((props(grammarSchema(here) as never) as Record<string, unknown>).talkTo).toEqual({ enum: ['Ruth Bennett', 'Arthur Bennett', null] });
    // Control: the schema as declared lets any string through.
    expect(props(base).talkTo).toEqual({ type: ['string', 'null'] });
    expect(() => withLength(base, 'react', 2)).toThrow(/'react' is not an array property/);
  });
});

describe('the compact JSON grammar', () => {
  it('holds the whitespace between tokens to one optional space, and leaves every other rule as it was', () => {
    const gbnf = [
      'root ::= "{" whitespace-b-1-4-rule "\\"a\\"" ":" [ ]? rule0 whitespace-b-0-4-rule "}"',
      'comma-whitespace-b-3-4-rule ::= "," ([\\n] (" "{12} | "\\t"{3}) | [ ]?)',
      'whitespace-b-1-4-rule ::= [\\n] ("    " | "\\t") | [ ]?',
      'rule0 ::= "[" whitespace-b-2-4-rule "]"',
    ].join('\n');
    const compact = compactJsonGrammar(gbnf).split('\n');
    expect(compact[0]).toBe(gbnf.split('\n')[0]);
    expect(compact[1]).toBe('comma-whitespace-b-3-4-rule ::= "," [ ]?');
    expect(compact[2]).toBe('whitespace-b-1-4-rule ::= [ ]?');
    expect(compact[3]).toBe(gbnf.split('\n')[3]);
    // Control: the grammar as node-llama-cpp writes it lets a reply break lines.
    expect(gbnf).toMatch(/\[\\n\]/);
    expect(compact.join('\n')).not.toMatch(/\[\\n\]/);
  });
});

describe('the shape a whole conversation is asked in', () => {
  it("names its two speakers and asks for no more lines than the talk has, each a line's share of the budget", async () => {
    const { LlmMind } = await import('../../server/src/agent/LlmMind');
    const { loadTownMap } = await import('../../server/src/world/map');
    const { loadPersonas } = await import('../../server/src/world/persona');
    const map = loadTownMap('maps/town.tmj');
    const personas = loadPersonas('personas', map, () => {});
    const [isabella, claire] = ['isabella', 'claire'].map((id) => personas.find((p) => p.id === id)!);
    const asked: ChatRequest[] = [];
    const lines = [
      { speaker: 'Isabella Rivera', line: 'Good morning, Claire!' },
      { speaker: 'Claire Moreau', line: 'Morning, Isabella.' },
    ];
    const model: ChatModel = {
      complete: async (request) => {
        asked.push(request);
        const text = JSON.stringify({ lines });
        return { text, json: { lines }, usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, finishReason: 'stop', model: 'capture', cached: false };
      },
    };
    const mind = new LlmMind({ model, label: 'capture' });
    const ctxOf = (p: Persona) => workingContext(p, personas, map);
    const said = await mind.converseWhole(
      [
        { ctx: ctxOf(isabella), partner: claire, relationship: null, memories: [], news: [] },
        { ctx: ctxOf(claire), partner: isabella, relationship: null, memories: [], news: [] },
      ],
      4,
    );
    expect(said.map((l) => l.speaker)).toEqual(['isabella', 'claire']);
    type Shape = { properties: { lines: { maxItems: number; items: { properties: Record<string, Record<string, unknown>> } } } };
    const shape = asked[0].grammarShape as never as Shape;
    expect(shape.properties.lines.maxItems).toBe(4);
    expect(shape.properties.lines.items.properties.speaker.enum).toEqual(['Isabella Rivera', 'Claire Moreau']);
    expect(shape.properties.lines.items.properties.line.maxLength).toBe(240);
    // Control: the schema as declared, which an endpoint gets, lets any speaker and sixteen lines through.
    const declared = asked[0].schema as never as Shape;
    expect([declared.properties.lines.maxItems, declared.properties.lines.items.properties.speaker.enum]).toEqual([16, undefined]);
  });
});
