// Every agent of the town on screen, as one crowd: makes and drops their views as agents come and go,
// and each frame draws only those in the camera's view. Names, emoji and bubbles show while few enough
// agents are on screen to read them (and always for the followed agent, and those talking while at most 150 talk on screen); they come
// from two shared label atlases, so a thousand names are one texture. Names that would cover one another
// are stacked. Zoomed out (below YIELD_ZOOM), emoji and bubbles that would cover a place name or a better
// ranked one yield (are hidden): the followed agent's rank first, then speech bubbles, action emoji, and
// sleep emoji last (markLayout.ts has the rule). Zoomed so far out that a sprite
// would be a few pixels, or with hundreds on screen, each agent is a dot of its shirt's colour, all
// drawn into one screen-sized image (dotLayer.ts): a thousand sprites cost a thousand image draws in
// the 2D canvas, ten thousand dots one.
import type Phaser from 'phaser';
import type { AgentState } from '@protocol/state';
import type { Actor } from './spotlight';
import { AgentView, type AgentFrame, type AgentLabels } from './AgentView';
import { LabelAtlas } from './labelAtlas';
import { DotLayer } from './dotLayer';
import { layOutMarks, YIELD_ZOOM, type Mark } from './markLayout';
import { PlaceLabels } from './PlaceLabels';

/**
 * More agents than this on screen, and only the followed and the talking keep their names; more talking than this
 * on screen too (hundreds of conversations in a town of 10,000), and only the followed.
 */
export const MAX_LABELLED_ON_SCREEN = 150;
/** Agents this far outside the camera's view (screen px) are still drawn, so nothing pops in at the edge. */
const VIEW_MARGIN_PX = 48;
/** Below this zoom a sprite is under 7 screen px: agents are drawn as dots… */
export const DOT_ZOOM = 0.22;
/** …and when more than this many are on screen (a crowd of a thousand in a small town). */
export const MAX_SPRITES_ON_SCREEN = 400;
/** A dot's side, screen px. */
const DOT_PX = 3;
/** Screen px kept clear between two marks, or a mark and a place name; a grid cell's side for laying them out. */
const MARK_GAP_PX = 3;
const MARK_GRID_PX = 128;

/** The agents of the town's state, by id. */
export interface AgentStates {
  forEach(fn: (agent: AgentState, id: string) => void): void;
}

export class AgentCrowd {
  private readonly labels: AgentLabels;
  private readonly dots: DotLayer;
  private onScreen = 0;
  private talkingOnScreen = 0;
  /** Frames drawn: a view not stamped with this frame's number lost its agent. */
  private frameNo = 0;
  /** The views with an emoji or a bubble to show this frame. */
  private readonly marked: AgentView[] = [];
  /** What the last layout of marks was worked out from (yieldMarks): empty when none holds. */
  private readonly markInputs: Array<string | number> = [];

  constructor(
    private readonly scene: Phaser.Scene,
    /** The views, by agent id (the scene and the test hooks read it). */
    readonly views: Map<string, AgentView>,
    private readonly tilePx: number,
  ) {
    this.labels = {
      names: new LabelAtlas(scene, 'agent-names', { font: '11px system-ui, sans-serif', color: '#ffffff', stroke: '#1b1b24', strokePx: 3, rowPx: 16 }),
      emoji: new LabelAtlas(scene, 'agent-emoji', { font: '15px system-ui, sans-serif', color: '#000000', rowPx: 22 }),
    };
    this.dots = new DotLayer(scene, 'agent-dots', 10);
  }

  /** How many agents were drawn in the last frame. */
  get drawn(): number {
    return this.onScreen;
  }

  /**
   * Brings the views in line with the state and draws the frame; returns every agent as an actor for the
   * camera's spotlight (none unless `wantActors`), and the ids of views dropped because their agent left.
   */
  update(
    agents: AgentStates,
    mapWidth: number,
    gameNow: number,
    camera: Phaser.Cameras.Scene2D.Camera,
    followed: string | null,
    /** Whether the actors are wanted (the auto camera's spotlight): a town of 10,000 made 10,000 objects a frame. */
    wantActors = true,
  ): { actors: Actor[]; removed: string[] } {
    const zoom = camera.zoom;
    const margin = VIEW_MARGIN_PX / zoom;
    const view = camera.worldView;
    const frame: AgentFrame = {
      textScale: Math.max(1, 1 / zoom),
      left: view.x - margin,
      top: view.y - margin,
      right: view.x + view.width + margin,
      bottom: view.y + view.height + margin,
      // The count of the frame before: a frame late is not seen.
      labels: this.onScreen <= MAX_LABELLED_ON_SCREEN,
      sprites: zoom >= DOT_ZOOM && this.onScreen <= MAX_SPRITES_ON_SCREEN,
    };
    const stamp = ++this.frameNo;
    const actors: Actor[] = [];
    const dotsByColour = new Map<string, number[]>();
    let onScreen = 0;
    let talkingOnScreen = 0;
    // The count of the frame before, as for `labels`.
    const talkersLabelled = this.talkingOnScreen <= MAX_LABELLED_ON_SCREEN;
    this.marked.length = 0;
    agents.forEach((agent, id) => {
      let v = this.views.get(id);
      if (!v) {
        v = new AgentView(this.scene, id, agent, this.tilePx, this.labels);
        this.views.set(id, v);
      }
      v.seenInFrame = stamp;
      const talking = agent.speech !== '' || agent.talkingTo !== '';
      if (v.update(agent, mapWidth, gameNow, frame, (talking && talkersLabelled) || id === followed)) {
        onScreen++;
        if (talking) talkingOnScreen++;
        if (v.hasMarks) this.marked.push(v);
        if (!frame.sprites) {
          let list = dotsByColour.get(v.shirt);
          if (!list) dotsByColour.set(v.shirt, (list = []));
          list.push(v.x, v.y);
        }
      }
      if (wantActors)
        actors.push({ id, x: v.x, y: v.y, walking: v.isWalking, talking, talkingTo: agent.talkingTo, asleep: agent.asleep, action: agent.action });
    });
    this.onScreen = onScreen;
    this.talkingOnScreen = talkingOnScreen;
    // A dot is at least DOT_PX on screen, and half a tile when that is more.
    this.dots.draw(dotsByColour, camera, Math.max(DOT_PX, this.tilePx * 0.5 * zoom));
    this.separateNames();
    const removed: string[] = [];
    for (const [id, v] of this.views)
      if (v.seenInFrame !== stamp) {
        v.destroy();
        this.views.delete(id);
        removed.push(id);
      }
    this.labels.names.flush();
    this.labels.emoji.flush();
    return { actors, removed };
  }

  /**
   * Below YIELD_ZOOM, hides the emoji and bubbles of this frame that would cover a place name drawn or a mark
   * ranked above them, and hides the place names under the followed agent's (markLayout.ts); at YIELD_ZOOM
   * and above, all show. Called once the frame's agents and place names are placed. Worked out again only
   * when what it rests on changed (the zoom, the place names in view, a mark's rank, place or size on
   * screen); in between, each view keeps its marks hidden or shown.
   */
  yieldMarks(places: PlaceLabels, zoom: number, followed: string | null): void {
    const inputs = this.markInputs;
    if (zoom >= YIELD_ZOOM) {
      if (!inputs.length) return;
      inputs.length = 0;
      for (const v of this.views.values()) {
        v.yieldMark('emoji', false);
        v.yieldMark('bubble', false);
      }
      places.cover([]);
      return;
    }
    const marks: Mark[] = [];
    for (const v of this.marked) v.addMarks(marks, v.id === followed);
    // Compared with the last layout's, one number at a time; marks come in the views' order, the same each frame.
    let n = 0;
    let same = inputs.length > 0;
    const put = (x: string | number) => {
      if (inputs[n] !== x) {
        inputs[n] = x;
        same = false;
      }
      n++;
    };
    put(zoom);
    put(places.inViewVersion);
    for (const k of marks) {
      put(k.id);
      put(k.rank);
      put(Math.round(k.x * zoom));
      put(Math.round(k.y * zoom));
      put(Math.round(k.width * zoom));
      put(Math.round(k.height * zoom));
    }
    if (inputs.length !== n) {
      inputs.length = n;
      same = false;
    }
    if (same) return;
    const names = places.inView;
    const covered = layOutMarks(
      marks,
      names.map((l) => PlaceLabels.box(l, zoom)),
      MARK_GAP_PX / zoom,
      MARK_GRID_PX / zoom,
    );
    for (const k of marks) this.views.get(k.id)?.yieldMark(k.part, !k.shown);
    places.cover(covered.map((i) => names[i]));
  }

  /**
   * The agent at a world point: one whose sprite or name is under it (the nearest such), else the nearest
   * agent drawn within `slopPx` screen px (a dot at whole-town zoom is a few px wide). Null: nobody.
   */
  pick(wx: number, wy: number, zoom: number, slopPx = 10): string | null {
    let best: string | null = null;
    let bestD = Infinity;
    let covered = false;
    const reach = Math.max(slopPx / zoom, this.tilePx * 0.5);
    for (const [id, v] of this.views) {
      // A dot is drawn above the agent's feet; a sprite's middle is about there too.
      const d = Math.hypot(v.x - wx, v.y - this.tilePx * 0.25 - wy);
      const on = v.covers(wx, wy);
      if (on && !covered) {
        covered = true;
        bestD = Infinity;
      }
      if ((on || (!covered && d <= reach)) && d < bestD) {
        best = id;
        bestD = d;
      }
    }
    return best;
  }

  /**
   * Names that would cover one another (agents sharing a tile or close by) are stacked: each goes below the
   * ones already placed, in order of the agents' places from top to bottom, then left to right.
   */
  private separateNames(): void {
    const shown: Array<{ v: AgentView; box: { x: number; y: number; width: number; height: number } }> = [];
    for (const v of this.views.values()) {
      const box = v.labelBox;
      if (box) shown.push({ v, box });
    }
    if (shown.length < 2) return;
    shown.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
    const placed: Array<{ x: number; y: number; width: number; height: number }> = [];
    for (const { v, box } of shown) {
      let dy = 0;
      for (let tries = 0; tries < 8; tries++) {
        const hit = placed.find((p) => box.x < p.x + p.width && p.x < box.x + box.width && box.y + dy < p.y + p.height && p.y < box.y + dy + box.height);
        if (!hit) break;
        dy = hit.y + hit.height - box.y;
      }
      if (dy) v.nudgeLabel(dy);
      placed.push({ ...box, y: box.y + dy });
    }
  }
}
