// Replay in the page: the timeline along the bottom, driving the connection hub between the live town
// and this viewer's own replay room. A seek from live opens a replay room at that moment; later seeks,
// play and pause go to that room; "back to live" returns to the live town (or, on a page that only
// replays a world file, to the page of that world's running town, or says that none runs). The address carries the moment and the agent
// (`?t=2026-02-14T17:00&agent=isabella`), so a moment can be shared as a link.
import type { TimelineMarker } from '@protocol/replay';
import { formatIsoMoment } from '@protocol/time';
import type { ConnectionHub } from '../net/connectionHub';
import { connectToReplay } from '../net/replayConnection';
import { fetchTimeline } from '../net/api';
import { Timeline } from './timeline';

/** How often the span and markers are read again (the live world's grow). */
const TIMELINE_REFRESH_MS = 20_000;
/** The cursor and the address are brought up to date at most this often. */
const CURSOR_MS = 100;
/** While playing, the address follows the moment once it has moved this much game time. */
const URL_STEP_GAME_MS = 60_000;
/**
 * A pick writes the address this long after (the last of several picks wins): the browser's history call
 * took 15–70 ms in the big town, on the click's path to the inspector.
 */
const PICK_URL_DELAY_MS = 300;

export interface ReplayBarOptions {
  hub: ConnectionHub;
  root: HTMLElement;
  /** The world file replays open: null for the town this page watches by default. */
  world: string | null;
  /** On a page that only replays a world file: the running town of that world (null: none runs, and "back to live" says so). */
  fileLiveTown: string | null;
  /** A line in the status bar (errors, the reason a world replays with less detail). */
  say(text: string): void;
  /** After every seek, once the replay is at the new moment (the inspector reads again). */
  onMoved(): void;
}

export class ReplayBar {
  readonly timeline: Timeline;
  private markers: TimelineMarker[] = [];
  private span = { firstGameMs: 0, lastGameMs: 0 };
  private lastCursor = 0;
  private urlGameMs: number | null = null;
  /** A replay room being opened, and the latest moment asked for meanwhile. */
  private opening: Promise<void> | null = null;
  private pendingSeek: number | null = null;
  private agent: string | null = null;
  private pickUrlTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: ReplayBarOptions) {
    this.timeline = new Timeline(o.root, {
      seek: (t) => void this.seek(t),
      play: (rate) => this.o.hub.send('play', { rate }),
      pause: () => this.o.hub.send('pause', {}),
      live: () => this.backToLive(),
    });
    if (!o.hub.live && o.fileLiveTown === null) this.timeline.setNoLiveTown(this.noLiveTown());
    this.agent = new URLSearchParams(location.search).get('agent');
    o.hub.on('history', () => this.o.onMoved());
    void this.refresh();
    setInterval(() => void this.refresh(), TIMELINE_REFRESH_MS);
  }

  get mode(): 'live' | 'replay' {
    return this.o.hub.mode;
  }

  /** Reads the world's span and markers again. */
  async refresh(): Promise<void> {
    try {
      const t = await fetchTimeline(this.o.world);
      this.span = t.span;
      this.markers = t.markers;
      this.timeline.setMarkers(t.markers);
    } catch (error) {
      this.o.say(`The timeline could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Goes to a moment: opens this viewer's replay room there, or moves the open one. */
  async seek(gameMs: number): Promise<void> {
    const t = Math.round(gameMs);
    this.setUrl(t);
    if (this.mode === 'replay') {
      this.o.hub.send('seek', { t });
      return;
    }
    if (this.opening) {
      this.pendingSeek = t;
      return this.opening;
    }
    this.opening = (async () => {
      try {
        const replay = await connectToReplay({ world: this.o.world, gameMs: t });
        this.o.hub.switchTo(replay);
        if (replay.state.detail) this.o.say(`This world replays with less detail: ${replay.state.detail}.`);
      } catch (error) {
        this.setUrl(null);
        this.o.say(`Could not replay: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.opening = null;
      }
      const next = this.pendingSeek;
      this.pendingSeek = null;
      if (next !== null && this.mode === 'replay') this.o.hub.send('seek', { t: next });
    })();
    return this.opening;
  }

  togglePlay(): void {
    this.timeline.togglePlay();
  }

  stepMarker(direction: 1 | -1): void {
    this.timeline.stepMarker(direction);
  }

  backToLive(): void {
    const live = this.o.hub.live;
    if (!live) {
      // This page replays a file: back to the running town of that world, never to another world's.
      if (this.o.fileLiveTown === null) this.o.say(this.noLiveTown());
      else location.href = `/?${new URLSearchParams({ world: this.o.fileLiveTown }).toString()}`;
      return;
    }
    this.o.hub.switchTo(live);
    this.setUrl(null);
    this.o.say('');
  }

  private noLiveTown(): string {
    return `${this.o.world ?? 'this world'} has no live town: it is not running (the running towns are at /towns)`;
  }

  /** The agent picked (null: none), carried in the address. */
  setAgent(id: string | null): void {
    this.agent = id;
    if (this.pickUrlTimer === null) this.pickUrlTimer = setTimeout(() => this.writeUrl(), PICK_URL_DELAY_MS);
  }

  /** Once a frame: where the cursor is. */
  frame(gameNow: number): void {
    const now = performance.now();
    if (now - this.lastCursor < CURSOR_MS) return;
    this.lastCursor = now;
    const s = this.o.hub.state;
    if (this.mode === 'replay') {
      this.timeline.setSpan(s.spanStartGameMs, s.spanEndGameMs);
      this.timeline.setCursor(gameNow, 'replay', s.replayRate);
      if (this.urlGameMs === null || Math.abs(gameNow - this.urlGameMs) >= URL_STEP_GAME_MS) this.setUrl(gameNow);
    } else {
      this.timeline.setSpan(this.span.firstGameMs || gameNow, Math.max(this.span.lastGameMs, gameNow));
      this.timeline.setCursor(gameNow, 'live', 0);
    }
  }

  /** The markers, for the browser tests and the keyboard. */
  get markerList(): readonly TimelineMarker[] {
    return this.markers;
  }

  private setUrl(gameMs: number | null): void {
    this.urlGameMs = gameMs;
    this.writeUrl();
  }

  private writeUrl(): void {
    if (this.pickUrlTimer !== null) clearTimeout(this.pickUrlTimer);
    this.pickUrlTimer = null;
    const url = new URL(location.href);
    if (this.urlGameMs === null) url.searchParams.delete('t');
    else url.searchParams.set('t', formatIsoMoment(this.urlGameMs));
    if (this.agent) url.searchParams.set('agent', this.agent);
    else url.searchParams.delete('agent');
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  }
}
