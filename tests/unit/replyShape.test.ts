import { describe, expect, it } from 'vitest';
import { CLOCK_GRID_MAX, clockGrid, withItemEnums, withLength, withNameOrNull } from '../../server/src/agent/replyShape';
import { jsonSchemaOf } from '../../server/src/agent/LlmMind';
import { AppraiseReply, HourBlocksReply } from '../../server/src/agent/prompts';
import { grammarSchema } from '../../server/src/llm/embedded';

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
