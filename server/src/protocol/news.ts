// The `news` message: what a batch of logged events tells every viewer of a town, live or replayed (the lines said
// and the feed's items). No zod here: the page imports this, and zod's compiler is refused by the page's CSP.
import type { FeedItem, UtteranceEvent } from './messages';

/**
 * What a batch of logged events tells every viewer of a town, live or replayed: the lines said and the feed's items,
 * in one `news` message. Tuples, not objects, with game times as offsets from `gameMs`: a town of ten thousand tells
 * a viewer hundreds a second, and the keys and the absolute times were 40 % of those bytes.
 */
export interface NewsMessage {
  gameMs: number;
  lines: Array<[conversationId: number, speaker: string, listener: string, text: string, afterMs: number]>;
  feed: Array<[seq: number, kind: string, agentId: string | null, text: string, afterMs: number]>;
}

/** The news of these lines and items, or null when there are none (nothing is sent). */
export function packNews(lines: readonly UtteranceEvent[], feed: readonly FeedItem[]): NewsMessage | null {
  const first = lines[0] ?? feed[0];
  if (!first) return null;
  const gameMs = first.gameMs;
  return {
    gameMs,
    lines: lines.map((l) => [l.conversationId, l.speaker, l.listener, l.text, l.gameMs - gameMs]),
    feed: feed.map((i) => [i.seq, i.kind, i.agentId, i.text, i.gameMs - gameMs]),
  };
}

/** The lines and items a `news` message holds, as the HTTP API and a replay's history give them. */
export function unpackNews(news: NewsMessage): { lines: UtteranceEvent[]; feed: FeedItem[] } {
  return {
    lines: news.lines.map(([conversationId, speaker, listener, text, afterMs]) => ({ conversationId, speaker, listener, text, gameMs: news.gameMs + afterMs })),
    feed: news.feed.map(([seq, kind, agentId, text, afterMs]) => ({ seq, gameMs: news.gameMs + afterMs, kind, agentId, text })),
  };
}
