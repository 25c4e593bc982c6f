// Every agent of the town on screen, as one crowd: makes and drops their views as agents come and go,
// and each frame draws only those in the camera's view. Names, emoji and bubbles show while few enough
// agents are on screen to read them (and always for the followed agent and those talking); they come
// from two shared label atlases, so a thousand names are one texture.
import type Phaser from 'phaser';
import type { AgentState } from '@protocol/state';
import type { Actor } from './spotlight';
import { AgentView, type AgentFrame, type AgentLabels } from './AgentView';
import { LabelAtlas } from './labelAtlas';

/** More agents than this on screen, and only the followed and the talking keep their names. */
export const MAX_LABELLED_ON_SCREEN = 150;
/** Agents this far outside the camera's view (screen px) are still drawn, so nothing pops in at the edge. */
const VIEW_MARGIN_PX = 48;

/** The agents of the town's state, by id. */
export interface AgentStates {
  forEach(fn: (agent: AgentState, id: string) => void): void;
}

export class AgentCrowd {
  private readonly labels: AgentLabels;
  private onScreen = 0;

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
  }

  /** How many agents were drawn in the last frame. */
  get drawn(): number {
    return this.onScreen;
  }

  /**
   * Brings the views in line with the state and draws the frame; returns every agent as an actor for the
   * camera's spotlight, and the ids of views dropped because their agent left.
   */
  update(agents: AgentStates, mapWidth: number, gameNow: number, camera: Phaser.Cameras.Scene2D.Camera, followed: string | null): { actors: Actor[]; removed: string[] } {
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
    };
    const seen = new Set<string>();
    const actors: Actor[] = [];
    let onScreen = 0;
    agents.forEach((agent, id) => {
      seen.add(id);
      let v = this.views.get(id);
      if (!v) {
        v = new AgentView(this.scene, id, agent, this.tilePx, this.labels);
        this.views.set(id, v);
      }
      const talking = agent.speech !== '' || agent.talkingTo !== '';
      if (v.update(agent, mapWidth, gameNow, frame, talking || id === followed)) onScreen++;
      actors.push({ id, x: v.x, y: v.y, walking: v.isWalking, talking, talkingTo: agent.talkingTo, asleep: agent.asleep, action: agent.action });
    });
    this.onScreen = onScreen;
    const removed: string[] = [];
    for (const [id, v] of this.views)
      if (!seen.has(id)) {
        v.destroy();
        this.views.delete(id);
        removed.push(id);
      }
    this.labels.names.flush();
    this.labels.emoji.flush();
    return { actors, removed };
  }
}
