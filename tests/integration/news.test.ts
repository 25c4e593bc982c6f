// What a viewer of the live town is told over a real Colyseus server: the `news` messages, unpacked as the page
// unpacks them, hold every line said and every feed item the log holds since the viewer joined, in order, with
// their game times; the feed items are the HTTP feed's. Driven by a manual wall clock, so the town moves only
// when the test moves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import type { FeedItem, UtteranceEvent } from '../../server/src/protocol/messages';
import { unpackNews, type NewsMessage } from '../../server/src/protocol/news';
import { toldOf } from '../../server/src/protocol/feedText';
import { ManualClock } from '../../server/src/core/wallClock';
import { startTestTown, waitFor } from '../helpers';

const nextPatch = (room: Room<unknown, TownState>) => new Promise<void>((resolve) => room.onStateChange.once(() => resolve()));

describe('the news a viewer of the live town receives', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let room: Room<unknown, TownState>;
  const wall = new ManualClock();
  const news: NewsMessage[] = [];
  let joinedAfterSeq = 0;

  beforeAll(async () => {
    // Ten game minutes a real second, from 8:55, when the offline residents meet and talk.
    town = await startTestTown({ rate: 600, startTime: '2026-02-13T08:55', clockPolicy: 'run' }, { wallClock: wall });
    // Nothing is written while the clock stands still and the first plans are made: join then, and count from there.
    let last = -1;
    await waitFor('the new town to be quiet', async () => {
      const seq = town.town.db.events.lastSeq();
      const quiet = seq === last;
      last = seq;
      if (!quiet) await new Promise((r) => setTimeout(r, 300));
      return quiet;
    });
    room = await new Client(town.url).join<TownState>('town', {}, TownState);
    room.onMessage('welcome', () => undefined);
    room.onMessage('news', (m: NewsMessage) => news.push(m));
    joinedAfterSeq = town.town.db.events.lastSeq();
    if (!room.state.mapWidth) await nextPatch(room);
  });
  afterAll(async () => {
    await room?.leave();
    await town?.close();
  });

  const logged = () => {
    const events = town.town.db.events.read(joinedAfterSeq + 1, Number.MAX_SAFE_INTEGER, 100_000);
    return toldOf(events, (id) => town.town.personas.get(id)?.name ?? id);
  };
  const received = () => {
    const lines: UtteranceEvent[] = [];
    const feed: FeedItem[] = [];
    for (const m of news) {
      const told = unpackNews(m);
      lines.push(...told.lines);
      feed.push(...told.feed);
    }
    return { utterances: lines, feed };
  };

  it('holds every line said and every feed item logged, with their times, and the HTTP feed says the same', async () => {
    // Five game minutes at a time until a conversation begun since has ended.
    const begunAndEnded = () => {
      const started = new Set(logged().feed.flatMap((f) => (f.kind === 'conversation.start' ? [f.text.split(' started')[0]] : [])));
      return logged().feed.some((f) => f.kind === 'conversation.end' && started.has(f.text.split(' finished')[0]));
    };
    for (let i = 0; i < 120 && !begunAndEnded(); i++) {
      wall.advance(500);
      await nextPatch(room);
    }
    const expected = logged();
    expect(expected.utterances.length).toBeGreaterThanOrEqual(4);
    expect(begunAndEnded()).toBe(true);
    // The clock stands still again; what cognition finishes meanwhile is logged and told too.
    await waitFor('the viewer to be told everything logged', () => JSON.stringify(received()) === JSON.stringify(logged()));
    expect(received()).toEqual(logged());
    // The lines were said at different game times, and each arrived with its own.
    expect(new Set(received().utterances.map((u) => u.gameMs)).size).toBeGreaterThan(1);

    const { items } = (await (await fetch(`${town.url}/api/feed?limit=500`)).json()) as { items: FeedItem[] };
    expect(received().feed).toEqual(items.filter((i) => i.seq > joinedAfterSeq));
  });
});
