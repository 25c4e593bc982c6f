// The `news` message: a batch of lines said and feed items as tuples with relative game times. What a viewer
// unpacks must be exactly what was packed, and it must be smaller on the wire than the objects it replaced.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getMessageBytes, Protocol } from '@colyseus/core';
import type { FeedItem, UtteranceEvent } from '../../server/src/protocol/messages';
import { packNews, unpackNews, type NewsMessage } from '../../server/src/protocol/news';

const T0 = Date.UTC(2026, 1, 13, 7, 0);
const gameMs = fc.integer({ min: T0 - 3_600_000, max: T0 + 3_600_000 });
const id = fc.stringMatching(/^[a-z]{1,8}-[a-z]{1,8}$/);
const line: fc.Arbitrary<UtteranceEvent> = fc.record({ conversationId: fc.nat(), speaker: id, listener: id, text: fc.string(), gameMs });
const item: fc.Arbitrary<FeedItem> = fc.record({
  seq: fc.nat(),
  gameMs,
  kind: fc.constantFrom('plan.made', 'conversation.start', 'world.event'),
  agentId: fc.option(id),
  text: fc.string(),
});

describe('news messages', () => {
  it('unpack what was packed, item for item, times included', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.array(item, { maxLength: 20 }), (lines, feed) => {
        const news = packNews(lines, feed);
        if (lines.length === 0 && feed.length === 0) {
          expect(news).toBeNull();
          return;
        }
        // A copy, as the viewer receives it (the room's msgpack is covered by the integration test).
        const sent = JSON.parse(JSON.stringify(news)) as NewsMessage;
        expect(unpackNews(sent)).toEqual({ lines, feed });
      }),
      { numRuns: 300 },
    );
  });

  it('keep each time: a decoder that drops the offsets gets them wrong (the control)', () => {
    const lines: UtteranceEvent[] = [
      { conversationId: 3, speaker: 'ana-ruiz', listener: 'max-foster', text: 'Morning!', gameMs: T0 },
      { conversationId: 3, speaker: 'max-foster', listener: 'ana-ruiz', text: 'Hi, Ana.', gameMs: T0 + 4000 },
    ];
    const feed: FeedItem[] = [{ seq: 90, gameMs: T0 - 1000, kind: 'plan.made', agentId: 'ana-ruiz', text: 'Ana Ruiz planned the day' }];
    const news = packNews(lines, feed)!;
    expect(unpackNews(news)).toEqual({ lines, feed });
    const noOffsets: NewsMessage = {
      ...news,
      lines: news.lines.map((l) => [l[0], l[1], l[2], l[3], 0]),
      feed: news.feed.map((i) => [i[0], i[1], i[2], i[3], 0]),
    };
    expect(unpackNews(noOffsets)).not.toEqual({ lines, feed });
  });

  it('take at most two thirds of the bytes of the lines and items sent as objects, one message a line', () => {
    // A busy tick of a big town: ten lines said and thirty feed items.
    const lines = Array.from({ length: 10 }, (_, i): UtteranceEvent => ({
      conversationId: 400 + i,
      speaker: `aaron-foster${i}`,
      listener: `max-foster${i}`,
      text: 'Good morning! How have you been?',
      gameMs: T0 + i * 100,
    }));
    const feed = Array.from({ length: 30 }, (_, i): FeedItem => ({
      seq: 60_000 + i * 7,
      gameMs: T0 + i * 100,
      kind: 'plan.made',
      agentId: `aaron-foster${i}`,
      text: `Aaron Foster${i} planned the day`,
    }));
    const bytes = (type: string, message: unknown) => getMessageBytes.raw(Protocol.ROOM_DATA, type, message).length;
    const asObjects = lines.reduce((s, l) => s + bytes('utterance', l), 0) + bytes('feed', feed);
    const asNews = bytes('news', packNews(lines, feed));
    expect(asNews).toBeLessThan((2 / 3) * asObjects);
  });
});
