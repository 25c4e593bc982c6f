// The town camera: its viewport between the clock bar and the bottom bar, the whole town fitted and
// centred (never pinned in a corner when zoomed out), zoom about the pointer, and three modes:
// - auto: nobody picked an agent; the camera drifts gently to whoever is talking or acting (./spotlight),
//   or shows the whole town when nothing happens. It starts in this mode;
// - follow: an agent was picked; Phaser's follow keeps it centred;
// - free: the user panned or zoomed; the camera stays where they put it.
import Phaser from 'phaser';
import { Spotlight, type Actor, type Frame } from './spotlight';

export type CameraMode = 'auto' | 'follow' | 'free';

const MAX_ZOOM = 3;
const MIN_ZOOM = 0.25;
/** The closest the auto camera comes: sprites and names read well, a room or two on screen. */
const WATCH_ZOOM = 1;
/** The whole town shows this long at first, with its place names, before the auto camera moves in. */
const OPENING_MS = 3000;
/** Easing time constants: the camera covers ~63% of the way to its target in this time. */
const PAN_TAU_MS = 900;
const ZOOM_TAU_MS = 1200;

interface Target {
  cx: number;
  cy: number;
  zoom: number;
}

/** A flight the user asked for ("⌂ town", a pick): from where the camera was to the target, in FLIGHT_MS whatever the frame rate. */
interface Flight extends Target {
  from: Target;
  startMs: number;
}

/** How long a requested flight takes: under a second, so that "⌂ town" answers at once even far in. */
export const FLIGHT_MS = 600;

const easeInOut = (p: number) => (p < 0.5 ? 4 * p * p * p : 1 - (-2 * p + 2) ** 3 / 2);

export class TownCamera {
  mode: CameraMode = 'auto';
  private readonly spotlight = new Spotlight();
  /** Where a "whole town" request (free mode) or a pick (follow mode, the zoom only) flies to; null once there. */
  private flight: Flight | null = null;
  private readonly startedMs = performance.now();
  private lastUpdateMs = performance.now();
  private coveredLeft = 0;
  private coveredRight = 0;

  constructor(
    private readonly camera: Phaser.Cameras.Scene2D.Camera,
    readonly mapWidthPx: number,
    readonly mapHeightPx: number,
  ) {}

  /**
   * The viewport: the window less the bars on top and at the bottom; `coveredLeft` and `coveredRight`: px
   * covered by the side log and by the inspector. A followed agent is kept in the middle of what is left.
   */
  setViewport(width: number, height: number, top: number, bottom: number, coveredLeft = 0, coveredRight = 0): void {
    this.camera.setViewport(0, top, width, Math.max(1, height - top - bottom));
    this.coveredLeft = coveredLeft;
    this.coveredRight = coveredRight;
    this.clampBounds();
  }

  /** Where a followed agent sits: the middle of the part of the view no panel covers (world px off the centre). */
  private followOffset(): void {
    const shiftPx = (this.coveredLeft - this.coveredRight) / 2;
    if (Math.abs(shiftPx) * 2 >= this.camera.width) return;
    this.camera.setFollowOffset(-shiftPx / this.camera.zoom, 0);
  }

  /** The zoom at which the whole town fits the viewport. */
  fitZoom(): number {
    return Math.min(this.camera.width / this.mapWidthPx, this.camera.height / this.mapHeightPx);
  }

  private minZoom(): number {
    return Math.min(MIN_ZOOM, this.fitZoom() * 0.9);
  }

  /** Jumps to the whole town at once (the opening view). */
  showWholeTownNow(): void {
    const whole = this.wholeTown();
    this.camera.setZoom(whole.zoom);
    this.clampBounds();
    this.camera.centerOn(whole.cx, whole.cy);
  }

  /** Flies to the whole town and stays there (auto-follow off). */
  showWholeTown(): void {
    this.stopFollowing();
    this.mode = 'free';
    this.flight = this.flyTo(this.wholeTown());
  }

  private flyTo(target: Target): Flight {
    return { ...target, from: { cx: this.centerX(), cy: this.centerY(), zoom: this.camera.zoom }, startMs: performance.now() };
  }

  /** The camera's place `p` (0 to 1, eased) of the way along a flight; the zoom moves evenly in log space. */
  private along(f: Flight, now: number): { target: Target; done: boolean } {
    const p = Math.min(1, Math.max(0, (now - f.startMs) / FLIGHT_MS));
    const e = easeInOut(p);
    const zoom = Math.exp(Math.log(f.from.zoom) + (Math.log(f.zoom) - Math.log(f.from.zoom)) * e);
    return { target: { cx: f.from.cx + (f.cx - f.from.cx) * e, cy: f.from.cy + (f.cy - f.from.cy) * e, zoom }, done: p >= 1 };
  }

  setAutoFollow(on: boolean): void {
    if (on) {
      this.stopFollowing();
      this.mode = 'auto';
    } else if (this.mode === 'auto') this.mode = 'free';
    this.flight = null;
  }

  /** Follows a picked agent, zooming in to a readable size first if the view is further out. */
  follow(target: Phaser.GameObjects.Sprite | null): void {
    this.flight = null;
    if (target) {
      this.mode = 'follow';
      this.camera.startFollow(target, true, 0.15, 0.15);
      if (this.camera.zoom < WATCH_ZOOM) this.flight = this.flyTo({ cx: target.x, cy: target.y, zoom: WATCH_ZOOM });
    } else {
      this.stopFollowing();
      if (this.mode === 'follow') this.mode = 'free';
    }
  }

  /** The user zoomed: about a screen point (the pointer), or the centre. Ends auto-follow. */
  zoomBy(factor: number, screenX?: number, screenY?: number): void {
    this.userMoved();
    const cam = this.camera;
    const zoom = Phaser.Math.Clamp(cam.zoom * factor, this.minZoom(), MAX_ZOOM);
    const px = screenX ?? cam.x + cam.width / 2;
    const py = screenY ?? cam.y + cam.height / 2;
    // Keep the world point under the pointer where it is (the camera zooms about its centre).
    const offX = px - cam.x - cam.width / 2;
    const offY = py - cam.y - cam.height / 2;
    const wx = this.centerX() + offX / cam.zoom;
    const wy = this.centerY() + offY / cam.zoom;
    cam.setZoom(zoom);
    this.clampBounds();
    if (this.mode !== 'follow') cam.centerOn(wx - offX / zoom, wy - offY / zoom);
  }

  /** The user panned by screen pixels. Ends auto-follow and following. */
  panBy(dxScreen: number, dyScreen: number): void {
    this.userMoved();
    this.stopFollowing();
    if (this.mode === 'follow') this.mode = 'free';
    this.camera.centerOn(this.centerX() + dxScreen / this.camera.zoom, this.centerY() + dyScreen / this.camera.zoom);
  }

  /** Called every frame with the agents on the map. Eases by real time, whatever the frame rate. */
  update(actors: readonly Actor[]): void {
    this.clampBounds();
    if (this.mode === 'follow') this.followOffset();
    const now = performance.now();
    const deltaMs = Math.min(now - this.lastUpdateMs, 250);
    this.lastUpdateMs = now;
    let target: Target | null = null;
    if (this.mode === 'auto') {
      const frame = this.spotlight.update(actors, now);
      target = now - this.startedMs < OPENING_MS || !frame ? this.wholeTown() : this.frameTarget(frame);
    } else if (this.mode === 'follow' && this.flight) {
      // Phaser's follow moves the centre; only the zoom flies here.
      const { target: at, done } = this.along(this.flight, now);
      this.camera.setZoom(at.zoom);
      this.clampBounds();
      if (done) this.flight = null;
      return;
    } else if (this.mode === 'free' && this.flight) {
      const { target: at, done } = this.along(this.flight, now);
      this.camera.setZoom(at.zoom);
      this.clampBounds();
      this.camera.centerOn(at.cx, at.cy);
      if (done) this.flight = null;
      return;
    }
    if (!target) return;
    const pan = 1 - Math.exp(-deltaMs / PAN_TAU_MS);
    const cx = this.centerX() + (target.cx - this.centerX()) * pan;
    const cy = this.centerY() + (target.cy - this.centerY()) * pan;
    this.easeZoom(target.zoom, deltaMs);
    this.camera.centerOn(cx, cy);
  }

  /** One frame's step of the zoom towards `zoom`, even in log space (zooming in and out feel alike). */
  private easeZoom(zoom: number, deltaMs: number): void {
    const step = 1 - Math.exp(-deltaMs / ZOOM_TAU_MS);
    this.camera.setZoom(Math.exp(Math.log(this.camera.zoom) + (Math.log(zoom) - Math.log(this.camera.zoom)) * step));
    this.clampBounds();
  }

  /** Agents the auto camera watches now (empty in the other modes, or when it shows the whole town). */
  watched(): readonly string[] {
    return this.mode === 'auto' ? this.spotlight.ids : [];
  }

  centerX(): number {
    return this.camera.scrollX + this.camera.width * this.camera.originX;
  }

  centerY(): number {
    return this.camera.scrollY + this.camera.height * this.camera.originY;
  }

  /** The whole town, fitted; moved right of the side log when it fits there at the same zoom. */
  private wholeTown(): Target {
    const zoom = this.fitZoom();
    const spare = this.camera.width - this.mapWidthPx * zoom;
    const shiftPx = spare >= 2 * this.coveredLeft ? 0 : spare >= this.coveredLeft ? this.coveredLeft - spare / 2 : 0;
    return { cx: this.mapWidthPx / 2 - shiftPx / zoom, cy: this.mapHeightPx / 2, zoom };
  }

  private frameTarget(frame: Frame): Target {
    const fit = Math.min(this.camera.width / frame.width, this.camera.height / frame.height);
    const zoom = Phaser.Math.Clamp(fit, this.fitZoom(), Math.max(WATCH_ZOOM, this.fitZoom()));
    return { cx: frame.x + frame.width / 2, cy: frame.y + frame.height / 2, zoom };
  }

  private userMoved(): void {
    this.flight = null;
    if (this.mode === 'auto') this.mode = 'free';
  }

  private stopFollowing(): void {
    this.camera.stopFollow();
  }

  /**
   * Bounds that keep the map on screen. Where the map is smaller than the view, it may sit anywhere
   * wholly inside it (the whole-town view centres it, or keeps it clear of the side log), never half off.
   */
  private clampBounds(): void {
    const cam = this.camera;
    const viewW = cam.width / cam.zoom;
    const viewH = cam.height / cam.zoom;
    // Following, the map's edge may go under a panel, so that an agent at the edge is not under it.
    const padLeft = this.mode === 'follow' ? this.coveredLeft / cam.zoom : 0;
    const padRight = this.mode === 'follow' ? this.coveredRight / cam.zoom : 0;
    const x = viewW > this.mapWidthPx ? this.mapWidthPx - viewW : -padLeft;
    const y = viewH > this.mapHeightPx ? this.mapHeightPx - viewH : 0;
    const width = viewW > this.mapWidthPx ? 2 * viewW - this.mapWidthPx : this.mapWidthPx + padLeft + padRight;
    const height = viewH > this.mapHeightPx ? 2 * viewH - this.mapHeightPx : this.mapHeightPx;
    cam.setBounds(x, y, width, height);
  }
}
