// The timeline along the bottom of the town view: the world's recorded span on a game-time axis, with
// markers for conversations, reflections, plans, world events and operator actions (colour by kind,
// hover says what it was). Click or drag to seek; play and pause; speeds from 1× to 600×; step to the
// previous or next marker; back to live. It only draws and reports: the caller talks to the server.
import type { MarkerKind, TimelineMarker } from '@protocol/replay';
import { formatClock, formatGameDate, minuteOfDay } from '@protocol/time';
import { setText } from './dom';
import './timeline.css';

export interface TimelineHandlers {
  /** Go to a moment (entering replay from live). */
  seek(gameMs: number): void;
  /** Play at a rate in game ms per real ms (60 = 1×). */
  play(rate: number): void;
  pause(): void;
  /** Leave replay for the live town. */
  live(): void;
}

export const TIMELINE_SPEEDS: Array<[string, number]> = [
  ['1×', 60],
  ['10×', 600],
  ['60×', 3_600],
  ['600×', 36_000],
];

export const MARKER_COLOURS: Record<MarkerKind, string> = {
  conversation: '#5fb0ff',
  reflection: '#c38bff',
  plan: '#7fd67f',
  world: '#ffb347',
  operator: '#ff6f91',
};

/** Markers drawn at most; more are thinned to one per pixel column and kind. */
const MAX_DRAWN = 1500;
/** The markers are laid out again once the span shown is this much longer or shorter than the one they were laid out on. */
const MARKER_RESCALE = 0.05;
/** …and at most this often while the scale stays within a factor of 1.5 (see placeMarkers). */
const MARKER_REDRAW_MS = 3000;
/** The track's keys: a game minute (ten with Shift), an hour. */
const KEY_STEPS_GAME_MS: Record<string, number> = { ArrowLeft: -60_000, ArrowRight: 60_000, PageDown: -3_600_000, PageUp: 3_600_000 };

/** How long the cursor waits at a sought moment for the replay to get there. */
const SEEK_PATIENCE_MS = 2000;

/** While dragging, seek at most this often. */
const DRAG_SEEK_MS = 150;

export class Timeline {
  private span = { firstGameMs: 0, lastGameMs: 1 };
  /**
   * The span the markers were laid out on. A live span grows every tick: the markers' layer is moved and
   * scaled onto the span shown (one transform) and laid out again only once that scale is off by
   * MARKER_RESCALE; rebuilding up to MAX_DRAWN nodes ten times a second cost a big town's page a third of its frames.
   */
  private markersSpan = { firstGameMs: 0, lastGameMs: 1 };
  private markersDrawnMs = 0;
  private markers: TimelineMarker[] = [];
  private cursorGameMs = 0;
  /** Whether a game time has come (setCursor): until then the label says "connecting…", not 1 Jan 1970. */
  private hasTime = false;
  private mode: 'live' | 'replay' = 'live';
  private playingRate = 0;
  private speed = TIMELINE_SPEEDS[0][1];
  private dragging = false;
  /** A moment sought and not reached yet: the cursor stays there meanwhile, so keys and clicks add up from it. */
  private sought: { gameMs: number; atMs: number } | null = null;
  private lastDragSeek = 0;
  /** Why "back to live" has nowhere to go (a world file whose town is not running); null when it has. */
  private noLiveTown: string | null = null;
  private readonly el: {
    root: HTMLElement;
    play: HTMLButtonElement;
    prev: HTMLButtonElement;
    next: HTMLButtonElement;
    speed: HTMLSelectElement;
    track: HTMLElement;
    marks: HTMLElement;
    cursor: HTMLElement;
    label: HTMLElement;
    live: HTMLButtonElement;
  };

  constructor(
    root: HTMLElement,
    private readonly handlers: TimelineHandlers,
  ) {
    const button = (text: string, title: string, onClick: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.title = title;
      b.addEventListener('click', onClick);
      return b;
    };
    const prev = button('⏮', 'previous marker ([)', () => this.stepMarker(-1));
    const play = button('▶', 'play / pause the replay (Space while replaying)', () => this.togglePlay());
    const next = button('⏭', 'next marker (])', () => this.stepMarker(1));
    prev.className = 'timeline-prev';
    play.className = 'timeline-play';
    next.className = 'timeline-next';
    const speed = document.createElement('select');
    speed.title = 'replay speed';
    speed.setAttribute('aria-label', 'replay speed');
    for (const [label, rate] of TIMELINE_SPEEDS) speed.append(new Option(label, String(rate)));
    speed.addEventListener('change', () => {
      this.speed = Number(speed.value);
      if (this.playingRate > 0) this.handlers.play(this.speed);
      speed.blur();
    });
    const track = document.createElement('div');
    track.className = 'timeline-track';
    track.setAttribute('role', 'slider');
    track.setAttribute('aria-label', 'game time');
    track.tabIndex = 0;
    const marks = document.createElement('div');
    marks.className = 'timeline-marks';
    const cursor = document.createElement('div');
    cursor.className = 'timeline-cursor';
    track.append(marks, cursor);
    const label = document.createElement('span');
    label.className = 'timeline-label';
    // Always there (so the track keeps its width when a replay starts): an indicator while live, the way back while replaying.
    const live = button('● live', 'back to the live town (L)', () => this.handlers.live());
    live.className = 'timeline-live';
    root.replaceChildren(prev, play, next, speed, track, label, live);
    root.classList.add('timeline');
    this.el = { root, play, prev, next, speed, track, marks, cursor, label, live };

    track.addEventListener('pointerdown', (e) => {
      this.dragging = true;
      track.setPointerCapture(e.pointerId);
      this.dragTo(e.clientX, true);
    });
    track.addEventListener('pointermove', (e) => {
      if (this.dragging) this.dragTo(e.clientX, false);
    });
    const end = (e: PointerEvent) => {
      if (!this.dragging) return;
      this.dragTo(e.clientX, true);
      this.dragging = false;
      this.render();
    };
    track.addEventListener('pointerup', end);
    track.addEventListener('pointercancel', end);
    track.addEventListener('keydown', (e) => {
      // Steps of game time that do not depend on the span (a live one grows): forward and back lands where it began.
      const step = KEY_STEPS_GAME_MS[e.key];
      let t: number;
      if (e.key === 'Home') t = this.span.firstGameMs;
      else if (e.key === 'End') t = this.span.lastGameMs;
      else if (step !== undefined) t = this.cursorGameMs + step * (e.shiftKey ? 10 : 1);
      else return;
      t = Math.round(Math.min(this.span.lastGameMs, Math.max(this.span.firstGameMs, t)));
      this.seekTo(t);
      // The page's own arrow keys (panning) stay out of it.
      e.preventDefault();
      e.stopPropagation();
    });
    new ResizeObserver(() => this.drawMarkers()).observe(track);
    this.render();
  }

  setSpan(firstGameMs: number, lastGameMs: number): void {
    // While a drag goes on, the track keeps the span it started on, so the pointer and the cursor agree.
    if (this.dragging) return;
    this.span = { firstGameMs, lastGameMs: Math.max(lastGameMs, firstGameMs + 1) };
    this.placeMarkers();
    this.render();
  }

  /** The span drawn, from the track's left end to its right. */
  get shownSpan(): { firstGameMs: number; lastGameMs: number } {
    return { ...this.span };
  }

  setMarkers(markers: TimelineMarker[]): void {
    this.markers = [...markers].sort((a, b) => a.gameMs - b.gameMs);
    this.drawMarkers();
  }

  /** Where the town shown is in time, whether it is live, and the replay's rate (0: paused). */
  setCursor(gameMs: number, mode: 'live' | 'replay', playingRate: number): void {
    // While dragging, the cursor follows the pointer; after a seek it waits there for the replay to catch up.
    if (this.sought && (Math.abs(gameMs - this.sought.gameMs) < 1 || performance.now() - this.sought.atMs > SEEK_PATIENCE_MS)) this.sought = null;
    if (!this.dragging && !this.sought) this.cursorGameMs = gameMs;
    this.hasTime = true;
    this.mode = mode;
    this.playingRate = playingRate;
    this.render();
  }

  /** Says that this replay has no live town to go back to (null: it has): the button says so instead of offering it. */
  setNoLiveTown(reason: string | null): void {
    this.noLiveTown = reason;
    this.render();
  }

  /** The marker after (+1) or before (-1) the cursor. */
  markerFrom(direction: 1 | -1): TimelineMarker | undefined {
    const t = this.cursorGameMs;
    // A little slack, so stepping from a marker's own moment moves on.
    return direction > 0 ? this.markers.find((m) => m.gameMs > t + 500) : [...this.markers].reverse().find((m) => m.gameMs < t - 500);
  }

  stepMarker(direction: 1 | -1): void {
    const m = this.markerFrom(direction);
    if (m) this.seekTo(m.gameMs);
  }

  /** The cursor moves at once, so keys pressed quickly add up before the replay has caught up. */
  private seekTo(gameMs: number): void {
    const t = Math.round(gameMs);
    this.cursorGameMs = t;
    this.sought = { gameMs: t, atMs: performance.now() };
    this.render();
    this.handlers.seek(t);
  }

  togglePlay(): void {
    if (this.mode === 'live') {
      // From live, play starts a replay a little back in time.
      this.seekTo(Math.max(this.span.firstGameMs, this.cursorGameMs - 60 * 60_000));
      return;
    }
    if (this.playingRate > 0) this.handlers.pause();
    else this.handlers.play(this.speed);
  }

  private dragTo(clientX: number, final: boolean): void {
    const rect = this.el.track.getBoundingClientRect();
    const f = Math.min(1, Math.max(0, (clientX - rect.left) / Math.max(1, rect.width)));
    // setSpan leaves the span alone while dragging, so the pointer maps onto the span the drag began on.
    const t = this.span.firstGameMs + f * (this.span.lastGameMs - this.span.firstGameMs);
    this.cursorGameMs = t;
    this.render();
    const now = performance.now();
    if (final || now - this.lastDragSeek > DRAG_SEEK_MS) {
      this.lastDragSeek = now;
      this.seekTo(t);
    }
  }

  private fraction(gameMs: number): number {
    return (gameMs - this.span.firstGameMs) / (this.span.lastGameMs - this.span.firstGameMs);
  }

  /** Maps the markers' layer (laid out on `markersSpan`) onto the span shown, or lays it out again when that is too far. */
  private placeMarkers(): void {
    const drawn = this.markersSpan;
    const length = this.span.lastGameMs - this.span.firstGameMs;
    const scale = (drawn.lastGameMs - drawn.firstGameMs) / length;
    // Laid out again when the scale is off by MARKER_RESCALE, but not more than once a MARKER_REDRAW_MS (a young town's
    // span grows by a fifth a second): meanwhile the transform keeps every marker where it belongs, only a little wider or narrower.
    const due = Math.abs(scale - 1) > MARKER_RESCALE && (performance.now() - this.markersDrawnMs >= MARKER_REDRAW_MS || Math.abs(scale - 1) > 0.5);
    if (due || drawn.firstGameMs > this.span.firstGameMs) return this.drawMarkers();
    const shift = ((drawn.firstGameMs - this.span.firstGameMs) / length) * 100;
    const transform = scale === 1 && shift === 0 ? '' : `translateX(${shift.toFixed(4)}%) scaleX(${scale.toFixed(6)})`;
    if (this.el.marks.style.transform !== transform) this.el.marks.style.transform = transform;
  }

  private drawMarkers(): void {
    // A live span only grows: laid out on one a little longer (within MARKER_RESCALE), the markers last twice
    // as long before they are laid out again (every few seconds in a young town, whose span grows fast).
    const length = this.span.lastGameMs - this.span.firstGameMs;
    const ahead = this.mode === 'live' ? Math.floor(length * MARKER_RESCALE * 0.9) : 0;
    this.markersSpan = { firstGameMs: this.span.firstGameMs, lastGameMs: this.span.lastGameMs + ahead };
    this.markersDrawnMs = performance.now();
    this.el.marks.style.transform = '';
    const width = this.el.track.clientWidth || 1;
    const seen = new Set<string>();
    const nodes: HTMLElement[] = [];
    const on = this.markersSpan;
    const fraction = (gameMs: number) => (gameMs - on.firstGameMs) / (on.lastGameMs - on.firstGameMs);
    for (const m of this.markers) {
      if (m.gameMs < this.span.firstGameMs || m.gameMs > this.span.lastGameMs) continue;
      const x = fraction(m.gameMs);
      const column = `${m.kind}:${Math.round(x * width)}`;
      if (this.markers.length > MAX_DRAWN && seen.has(column)) continue;
      seen.add(column);
      const node = document.createElement('div');
      node.className = `timeline-marker kind-${m.kind}`;
      node.style.left = `${(x * 100).toFixed(3)}%`;
      if (m.endGameMs !== undefined) node.style.width = `${Math.max(0, (fraction(Math.min(m.endGameMs, this.span.lastGameMs)) - x) * 100).toFixed(3)}%`;
      node.style.background = MARKER_COLOURS[m.kind];
      node.title = `${formatClock(minuteOfDay(m.gameMs))} ${m.label}`;
      node.dataset.gameMs = String(m.gameMs);
      node.dataset.kind = m.kind;
      nodes.push(node);
    }
    this.el.marks.replaceChildren(...nodes);
    if (ahead > 0) this.placeMarkers();
  }

  private render(): void {
    const replay = this.mode === 'replay';
    const f = Math.min(1, Math.max(0, this.fraction(this.cursorGameMs)));
    this.el.cursor.style.left = `${(f * 100).toFixed(3)}%`;
    this.el.root.classList.toggle('replaying', replay);
    setText(this.el.play, replay && this.playingRate > 0 ? '⏸' : '▶');
    const nowhere = replay && this.noLiveTown !== null;
    this.el.live.disabled = !replay || nowhere;
    setText(this.el.live, nowhere ? '○ not running' : '● live');
    this.el.live.classList.toggle('no-live', nowhere);
    this.el.live.title = nowhere ? this.noLiveTown! : replay ? 'back to the live town (L)' : 'this is the live town';
    this.el.track.setAttribute('aria-valuenow', String(Math.round(this.cursorGameMs)));
    setText(this.el.label, this.hasTime ? `${formatGameDate(this.cursorGameMs)} ${formatClock(minuteOfDay(this.cursorGameMs))}` : 'connecting…');
  }
}
