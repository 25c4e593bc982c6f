// The side log: conversation lines as they are said, and the town feed (who talks to whom,
// reflections, plans, whispers, injected events).
import type { FeedItem, UtteranceEvent } from '@protocol/messages';
import type { TownConnection } from '../net/townConnection';
import { formatClock, formatGameTime, minuteOfDay } from '@protocol/time';
import { withWorld } from './towns';

const KEEP = 120;

export class FeedPanel {
  private readonly lines: HTMLOListElement;
  private readonly feed: HTMLOListElement;

  constructor(
    private readonly connection: TownConnection,
    root: HTMLElement,
  ) {
    const linesHead = document.createElement('h3');
    linesHead.textContent = 'Conversations';
    this.lines = document.createElement('ol');
    this.lines.id = 'conversation-log';
    const feedHead = document.createElement('h3');
    feedHead.textContent = 'Town feed';
    this.feed = document.createElement('ol');
    this.feed.id = 'town-feed';
    root.append(linesHead, this.lines, feedHead, this.feed);
    connection.on('utterance', (m) => this.addLine(m as UtteranceEvent));
    connection.on('feed', (m) => (m as FeedItem[]).forEach((i) => this.addItem(i)));
    void fetch(withWorld('/api/feed?limit=40'))
      .then((r) => r.json() as Promise<{ items: FeedItem[] }>)
      .then((r) => r.items.forEach((i) => this.addItem(i)))
      .catch(() => undefined);
  }

  private name(id: string): string {
    return this.connection.state.agents.get(id)?.name.split(' ')[0] ?? id;
  }

  private addLine(u: UtteranceEvent): void {
    const li = document.createElement('li');
    li.textContent = `${this.name(u.speaker)} → ${this.name(u.listener)}: ${u.text}`;
    li.title = formatGameTime(u.gameMs);
    prepend(this.lines, li);
  }

  private addItem(i: FeedItem): void {
    if (this.feed.querySelector(`[data-seq="${i.seq}"]`)) return;
    const li = document.createElement('li');
    li.dataset.seq = String(i.seq);
    li.dataset.kind = i.kind;
    li.textContent = `${formatClock(minuteOfDay(i.gameMs))} ${i.text}`;
    prepend(this.feed, li);
  }
}

function prepend(list: HTMLElement, item: HTMLElement): void {
  list.prepend(item);
  while (list.children.length > KEEP) list.lastElementChild!.remove();
}
