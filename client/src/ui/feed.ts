// The side log: conversation lines as they are said, and the town feed (who talks to whom,
// reflections, plans, whispers, injected events, operators' actions). Two sections, each with its own
// heading and its own scrolling list, so neither hides the other. In a replay both show what was said
// and done up to the moment shown (the replay room's `history`, sent after each seek), then go on as it plays.
import type { FeedItem, UtteranceEvent } from '@protocol/messages';
import { unpackNews, type NewsMessage } from '@protocol/news';
import type { ReplayHistory } from '@protocol/replay';
import type { TownConnection } from '../net/townConnection';
import { fetchFeed } from '../net/api';
import { formatClock, formatGameTime, minuteOfDay } from '@protocol/time';
import { el } from './dom';

const KEEP = 120;
/** New lines and items wait at most this long, to be added together. */
const BATCH_MS = 250;

export class FeedPanel {
  private readonly lines = el('ol', { id: 'conversation-log' });
  private readonly feed = el('ol', { id: 'town-feed' });
  private readonly pending: Array<() => void> = [];
  private batch: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly connection: TownConnection,
    root: HTMLElement,
  ) {
    this.lines.dataset.empty = 'Nobody is talking right now.';
    this.feed.dataset.empty = 'Nothing has happened yet.';
    root.replaceChildren(
      el('section', { className: 'log-section conversations' }, el('h3', { textContent: 'Conversations' }), this.lines),
      el('section', { className: 'log-section feed' }, el('h3', { textContent: 'Town feed' }), this.feed),
    );
    connection.on('news', (m) => {
      const { lines, feed } = unpackNews(m as NewsMessage);
      this.later(() => {
        lines.forEach((l) => this.addLine(l));
        feed.forEach((i) => this.addItem(i));
      });
    });
    connection.on('history', (m) => this.showHistory(m as ReplayHistory));
    this.reset(connection.state.mode === 'replay' ? 'replay' : 'live');
  }

  /**
   * Lines and items as they come are added together, at most every BATCH_MS: a town of a thousand says
   * dozens a second, and each one added alone laid the page out again (a frame's worth of time each time).
   */
  private later(add: () => void): void {
    this.pending.push(add);
    this.batch ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    if (this.batch !== null) clearTimeout(this.batch);
    this.batch = null;
    const added = this.pending.splice(0);
    for (const add of added) add();
    if (added.length > 0) for (const list of [this.lines, this.feed]) trim(list);
  }

  /** After a switch between the live town and a replay: start again from what that one has said. */
  reset(mode: 'live' | 'replay'): void {
    this.flush();
    this.lines.replaceChildren();
    this.feed.replaceChildren();
    if (mode === 'live') this.readLiveFeed();
    else this.connection.send('history', {});
  }

  private readLiveFeed(): void {
    void fetchFeed(40)
      // A replay may have begun meanwhile: the live town's items are not its history.
      .then((items) => {
        if (this.connection.state.mode !== 'replay') this.later(() => items.forEach((i) => this.addItem(i)));
      })
      .catch(() => undefined);
  }

  /** A replay's lines and feed up to its moment (the newest last in the reply, first on screen). */
  private showHistory(h: ReplayHistory): void {
    this.flush();
    this.lines.replaceChildren();
    this.feed.replaceChildren();
    for (const u of h.utterances.slice(-KEEP)) this.addLine(u);
    for (const i of h.feed.slice(-KEEP)) this.addItem(i);
    for (const list of [this.lines, this.feed]) trim(list);
  }

  private name(id: string): string {
    return this.connection.state.agents.get(id)?.name.split(' ')[0] ?? id;
  }

  private addLine(u: UtteranceEvent): void {
    const li = el('li', { textContent: `${this.name(u.speaker)} → ${this.name(u.listener)}: ${u.text}`, title: formatGameTime(u.gameMs) });
    this.lines.prepend(li);
  }

  private addItem(i: FeedItem): void {
    // Newer than every item shown (nearly always): it goes first, with no search of the list.
    const first = this.feed.firstElementChild as HTMLElement | null;
    const newest = first === null || Number(first.dataset.seq) < i.seq;
    if (!newest && this.feed.querySelector(`[data-seq="${i.seq}"]`)) return;
    const li = el('li', { textContent: `${formatClock(minuteOfDay(i.gameMs))} ${i.text}` });
    li.dataset.seq = String(i.seq);
    li.dataset.kind = i.kind;
    // Newest first; a late reply of the first read may hold older items: keep them in order.
    const after = newest ? first : [...this.feed.children].find((c) => Number((c as HTMLElement).dataset.seq) < i.seq);
    if (after) this.feed.insertBefore(li, after);
    else this.feed.append(li);
  }
}

/** Drops the oldest past KEEP, in one go (one by one, each removal cost about a millisecond in a busy town). */
function trim(list: HTMLElement): void {
  if (list.children.length <= KEEP) return;
  const range = document.createRange();
  range.setStartBefore(list.children[KEEP]);
  range.setEndAfter(list.lastChild!);
  range.deleteContents();
}
