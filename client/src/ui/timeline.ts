// The timeline along the bottom of the town view: the world's recorded span on a game-time axis, with
// markers for conversations, reflections, plans, world events and operator actions (colour by kind,
// hover says what it was). Click or drag to seek; play and pause; speeds from 1× to 600×; step to the
// previous or next marker; back to live. It only draws and reports: the caller talks to the server.
import type { MarkerKind, TimelineMarker } from '@protocol/replay';
import { formatClock, formatGameDate, minuteOfDay } from '@protocol/time';
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
/** While dragging, seek at most this often. */
const DRAG_SEEK_MS = 150;

export class Timeline {
  private span = { firstGameMs: 0, lastGameMs: 1 };
  private markers: TimelineMarker[] = [];
  private cursorGameMs = 0;
  private mode: 'live' | 'replay' = 'live';
  private playingRate = 0;
  private speed = TIMELINE_SPEEDS[0][1];
  private dragging = false;
  private lastDragSeek = 0;
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
    const prev = button('⏮', 'previous marker', () => this.stepMarker(-1));
    const play = button('▶', 'play / pause the replay', () => this.togglePlay());
    const next = button('⏭', 'next marker', () => this.stepMarker(1));
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
    const live = button('● live', 'back to the live town', () => this.handlers.live());
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
      this.dragging = false;
      this.dragTo(e.clientX, true);
    };
    track.addEventListener('pointerup', end);
    track.addEventListener('pointercancel', end);
    track.addEventListener('keydown', (e) => {
      const step = (this.span.lastGameMs - this.span.firstGameMs) / 100;
      if (e.key === 'ArrowLeft') this.handlers.seek(Math.max(this.span.firstGameMs, this.cursorGameMs - step));
      else if (e.key === 'ArrowRight') this.handlers.seek(Math.min(this.span.lastGameMs, this.cursorGameMs + step));
      else return;
      e.preventDefault();
    });
    new ResizeObserver(() => this.drawMarkers()).observe(track);
    this.render();
  }

  setSpan(firstGameMs: number, lastGameMs: number): void {
    const changed = firstGameMs !== this.span.firstGameMs || lastGameMs !== this.span.lastGameMs;
    this.span = { firstGameMs, lastGameMs: Math.max(lastGameMs, firstGameMs + 1) };
    if (changed) this.drawMarkers();
    this.render();
  }

  setMarkers(markers: TimelineMarker[]): void {
    this.markers = [...markers].sort((a, b) => a.gameMs - b.gameMs);
    this.drawMarkers();
  }

  /** Where the town shown is in time, whether it is live, and the replay's rate (0: paused). */
  setCursor(gameMs: number, mode: 'live' | 'replay', playingRate: number): void {
    this.cursorGameMs = gameMs;
    this.mode = mode;
    this.playingRate = playingRate;
    this.render();
  }

  /** The marker after (+1) or before (-1) the cursor. */
  markerFrom(direction: 1 | -1): TimelineMarker | undefined {
    const t = this.cursorGameMs;
    // A little slack, so stepping from a marker's own moment moves on.
    return direction > 0 ? this.markers.find((m) => m.gameMs > t + 500) : [...this.markers].reverse().find((m) => m.gameMs < t - 500);
  }

  private stepMarker(direction: 1 | -1): void {
    const m = this.markerFrom(direction);
    if (m) this.handlers.seek(m.gameMs);
  }

  private togglePlay(): void {
    if (this.mode === 'live') {
      // From live, play starts a replay a little back in time.
      this.handlers.seek(Math.max(this.span.firstGameMs, this.cursorGameMs - 60 * 60_000));
      return;
    }
    if (this.playingRate > 0) this.handlers.pause();
    else this.handlers.play(this.speed);
  }

  private dragTo(clientX: number, final: boolean): void {
    const rect = this.el.track.getBoundingClientRect();
    const f = Math.min(1, Math.max(0, (clientX - rect.left) / Math.max(1, rect.width)));
    const t = this.span.firstGameMs + f * (this.span.lastGameMs - this.span.firstGameMs);
    this.cursorGameMs = t;
    this.render();
    const now = performance.now();
    if (final || now - this.lastDragSeek > DRAG_SEEK_MS) {
      this.lastDragSeek = now;
      this.handlers.seek(t);
    }
  }

  private fraction(gameMs: number): number {
    return (gameMs - this.span.firstGameMs) / (this.span.lastGameMs - this.span.firstGameMs);
  }

  private drawMarkers(): void {
    const width = this.el.track.clientWidth || 1;
    const seen = new Set<string>();
    const nodes: HTMLElement[] = [];
    for (const m of this.markers) {
      if (m.gameMs < this.span.firstGameMs || m.gameMs > this.span.lastGameMs) continue;
      const x = this.fraction(m.gameMs);
      const column = `${m.kind}:${Math.round(x * width)}`;
      if (this.markers.length > MAX_DRAWN && seen.has(column)) continue;
      seen.add(column);
      const node = document.createElement('div');
      node.className = `timeline-marker kind-${m.kind}`;
      node.style.left = `${(x * 100).toFixed(3)}%`;
      if (m.endGameMs !== undefined) node.style.width = `${Math.max(0, (this.fraction(Math.min(m.endGameMs, this.span.lastGameMs)) - x) * 100).toFixed(3)}%`;
      node.style.background = MARKER_COLOURS[m.kind];
      node.title = `${formatClock(minuteOfDay(m.gameMs))} ${m.label}`;
      node.dataset.gameMs = String(m.gameMs);
      node.dataset.kind = m.kind;
      nodes.push(node);
    }
    this.el.marks.replaceChildren(...nodes);
  }

  private render(): void {
    const replay = this.mode === 'replay';
    const f = Math.min(1, Math.max(0, this.fraction(this.cursorGameMs)));
    this.el.cursor.style.left = `${(f * 100).toFixed(3)}%`;
    this.el.root.classList.toggle('replaying', replay);
    this.el.play.textContent = replay && this.playingRate > 0 ? '⏸' : '▶';
    this.el.live.hidden = !replay;
    this.el.track.setAttribute('aria-valuenow', String(Math.round(this.cursorGameMs)));
    this.el.label.textContent = `${formatGameDate(this.cursorGameMs)} ${formatClock(minuteOfDay(this.cursorGameMs))}`;
  }
}
