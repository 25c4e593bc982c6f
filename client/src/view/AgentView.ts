// One agent on screen: its sprite with a walk cycle, its name, its action emoji and its speech bubble.
// Positions come from the shared movement module, from the walk the server described once. The name and
// the emoji are frames of shared label atlases (labelAtlas.ts); the bubble is made the first time the
// agent speaks. Off screen, nothing of it is drawn or animated; only its position is kept. Zoomed far
// out, its sprite gives way to a dot the crowd draws (AgentCrowd). When an edited persona takes over,
// its look and name are drawn anew.
import Phaser from 'phaser';
import type { AgentState } from '@protocol/state';
import { arrivalGameMs, pathLength, positionOnPath, type Direction } from '@protocol/movement';
import { ensureCharacterTexture, standingFrame, FRAME_PX, type Look } from './characterTextures';
import type { LabelAtlas } from './labelAtlas';
import { MarkRank, type Box, type Mark } from './markLayout';

const BUBBLE_MAX_CHARS = 90;

/** What a frame of the town view asks of every agent. */
export interface AgentFrame {
  /** 1 / zoom, at least 1: keeps names, emoji and bubbles readable when zoomed out. */
  textScale: number;
  /** The part of the world worth drawing (the camera's view and a margin), px. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Whether names, emoji and bubbles show (off when too many agents are on screen to read them). */
  labels: boolean;
  /** Whether sprites show; zoomed far out the crowd draws agents as dots instead (AgentCrowd). */
  sprites: boolean;
}

/** A new look or name is looked for this often (frames): a quarter second at 60 fps. */
const LOOK_CHECK_FRAMES = 15;
let viewsMade = 0;

/** A walk's waypoints as a plain array, and where and when it ends. */
interface Walk {
  /** The state's array it was copied from. */
  source: unknown;
  path: number[];
  startGameMs: number;
  speed: number;
  mapWidth: number;
  endGameMs: number;
  endX: number;
  endY: number;
  endDirection: Direction;
}

/** The shared atlases agents draw their names and emoji from. */
export interface AgentLabels {
  names: LabelAtlas;
  emoji: LabelAtlas;
}

/** The parts drawn for an agent (the test hooks name each box). */
export type AgentPart = 'sprite' | 'name' | 'emoji' | 'bubble';

/** An object's box in the world, px. */
function boxOf(o: Phaser.GameObjects.Image | Phaser.GameObjects.Text | Phaser.GameObjects.Sprite): Box {
  return { x: o.x - o.displayWidth * o.originX, y: o.y - o.displayHeight * o.originY, width: o.displayWidth, height: o.displayHeight };
}

export class AgentView {
  readonly sprite: Phaser.GameObjects.Sprite;
  private readonly label: Phaser.GameObjects.Image;
  private readonly emoji: Phaser.GameObjects.Image;
  private bubble: Phaser.GameObjects.Text | null = null;
  private textureKey: string;
  /** The look and name drawn, to notice when an edited persona takes over. */
  private look: Look;
  private name: string;
  private direction: Direction = 'down';
  /** Walking now (on screen or not), and whether the walk cycle plays. */
  private moving = false;
  private walking = false;
  /** The walk being drawn, copied out of the state (walkOf). */
  private walk: Walk | null = null;
  /** The state's array last found to hold no walk (standing still). */
  private noWalk: unknown = null;
  private shownEmoji = '';
  private shownSpeech = '';
  private asleep = false;
  /** Whether its emoji and its bubble would show this frame, and whether they yield to other marks (the crowd decides: markLayout.ts). */
  private wantsEmoji = false;
  private wantsBubble = false;
  private emojiYields = false;
  private bubbleYields = false;
  private textScale = 1;
  private drawn = true;
  /** Whether its sprite, name, emoji and bubble are on the display list (false: at most its dot is drawn). */
  private partsShown = false;
  /** Frames until the look and the name are compared with the state again (spread over agents by their order of arrival). */
  private lookCheckIn = (viewsMade++ % LOOK_CHECK_FRAMES) + 1;
  /** The crowd's frame that last found its agent in the state (AgentCrowd). */
  seenInFrame = 0;
  /** World position in px, for the camera and the test hooks. */
  x = 0;
  y = 0;

  constructor(
    private readonly scene: Phaser.Scene,
    readonly id: string,
    state: AgentState,
    private readonly tilePx: number,
    private readonly atlases: AgentLabels,
  ) {
    this.textureKey = ensureCharacterTexture(scene, state);
    this.look = { skin: state.skin, hair: state.hair, shirt: state.shirt, pants: state.pants };
    this.name = state.name;
    // Not interactive: a thousand hit areas cost every pointer move; the crowd picks by position (AgentCrowd.pick).
    // Made off the display list: they join it while the agent is drawn as more than a dot (showParts).
    this.sprite = scene.make.sprite({ key: this.textureKey, frame: 0 }, false).setOrigin(0.5, 0.8).setDepth(10).setVisible(false);
    const name = atlases.names.frameOf(state.name.split(' ')[0]);
    this.label = scene.make
      .image({ key: name.key, frame: name.frame } as Phaser.Types.GameObjects.Sprite.SpriteConfig, false)
      .setOrigin(0.5, 0)
      .setDepth(11)
      .setVisible(false);
    this.emoji = scene.make
      .image({ key: '__DEFAULT' } as Phaser.Types.GameObjects.Sprite.SpriteConfig, false)
      .setOrigin(0.5, 1)
      .setDepth(11)
      .setVisible(false);
  }

  /** Whether the world point (px) is on this agent's drawn sprite or name. */
  covers(wx: number, wy: number): boolean {
    if (!this.drawn || !this.partsShown) return false;
    for (const o of [this.sprite, this.label]) {
      if (!o.visible) continue;
      const left = o.x - o.displayWidth * o.originX;
      const top = o.y - o.displayHeight * o.originY;
      if (wx >= left && wx <= left + o.displayWidth && wy >= top && wy <= top + o.displayHeight) return true;
    }
    return false;
  }

  /** The shirt's colour drawn (its dot's colour). */
  get shirt(): string {
    return this.look.shirt;
  }

  /** The name label's box in world px, when it shows (for keeping names apart). */
  get labelBox(): { x: number; y: number; width: number; height: number } | null {
    const l = this.label;
    if (!this.drawn || !this.partsShown || !l.visible) return null;
    return { x: l.x - l.displayWidth / 2, y: l.y, width: l.displayWidth, height: l.displayHeight };
  }

  /** The boxes (world px) of everything drawn for this agent now: sprite, name, emoji and speech bubble (for the test hooks). */
  get drawnBoxes(): Array<Box & { part: AgentPart }> {
    if (!this.drawn || !this.partsShown) return [];
    const parts = { sprite: this.sprite, name: this.label, emoji: this.emoji, bubble: this.bubble };
    return (Object.keys(parts) as AgentPart[]).flatMap((part) => {
      const o = parts[part];
      return o?.visible ? [{ part, ...boxOf(o) }] : [];
    });
  }

  /** Whether it has an emoji or a bubble to show this frame (shown or yielding). */
  get hasMarks(): boolean {
    return this.wantsEmoji || this.wantsBubble;
  }

  /** Adds to `out` its emoji and its bubble that would show this frame, ranked (markLayout.ts); `followed`: it is the followed agent. */
  addMarks(out: Mark[], followed: boolean): void {
    if (this.wantsBubble && this.bubble)
      out.push({ id: this.id, part: 'bubble', rank: followed ? MarkRank.followedBubble : MarkRank.bubble, shown: true, ...boxOf(this.bubble) });
    if (this.wantsEmoji) {
      const rank = followed ? MarkRank.followedEmoji : this.asleep ? MarkRank.sleep : MarkRank.emoji;
      out.push({ id: this.id, part: 'emoji', rank, shown: true, ...boxOf(this.emoji) });
    }
  }

  /** Hides its emoji or its bubble while it yields to other marks or to a place name, and shows it again when it no longer does. */
  yieldMark(part: Mark['part'], yields: boolean): void {
    if (part === 'emoji') {
      this.emojiYields = yields;
      this.emoji.setVisible(this.wantsEmoji && !yields);
    } else {
      this.bubbleYields = yields;
      this.bubble?.setVisible(this.wantsBubble && !yields);
    }
  }

  /** Moves the name label down by `dy` world px (it shares a place with another name). */
  nudgeLabel(dy: number): void {
    this.label.y += dy;
  }

  /** Whether the agent walks at this moment (for the auto-follow camera). */
  get isWalking(): boolean {
    return this.moving;
  }

  /**
   * Places the agent at `gameNow`; draws it when it is within the frame's view (names and bubbles when
   * the frame shows labels, or when `spotlit`: followed or talking). Returns whether it is drawn.
   */
  update(state: AgentState, mapWidth: number, gameNow: number, frame: AgentFrame, spotlit = false): boolean {
    // An edited persona's new look or name (rare): looked for every LOOK_CHECK_FRAMES frames, not five fields every frame.
    if (--this.lookCheckIn <= 0) {
      this.lookCheckIn = LOOK_CHECK_FRAMES;
      if (state.skin !== this.look.skin || state.hair !== this.look.hair || state.shirt !== this.look.shirt || state.pants !== this.look.pants)
        this.redress(state);
      if (state.name !== this.name) this.rename(state.name);
    }
    let x = state.tileX;
    let y = state.tileY;
    let moving = false;
    const walk = this.walkOf(state, mapWidth);
    if (walk && gameNow >= walk.endGameMs) {
      // Arrived (most walks, most of the time): where it ends, with no walk along the waypoints each frame.
      x = walk.endX;
      y = walk.endY;
      this.direction = walk.endDirection;
    } else if (walk) {
      const p = positionOnPath(walk.path, mapWidth, state.pathStartGameMs, state.tilesPerGameMinute, gameNow);
      x = p.x;
      y = p.y;
      moving = p.moving;
      this.direction = p.direction;
    }
    this.moving = moving;
    this.x = (x + 0.5) * this.tilePx;
    this.y = (y + 0.5) * this.tilePx;
    const inView = this.x >= frame.left && this.x <= frame.right && this.y >= frame.top && this.y <= frame.bottom;
    this.wantsEmoji = this.wantsBubble = false;
    if (!inView) {
      if (this.drawn) this.hide();
      return false;
    }
    this.drawn = true;
    // Only a dot (the crowd draws it): nothing more is done (ten thousand a frame).
    if (!frame.sprites && !frame.labels && !spotlit) {
      this.dropParts();
      return true;
    }
    this.showParts();
    // Placed even when only its dot is drawn: the camera follows the sprite (a followed agent, zoomed far out).
    this.sprite.setPosition(this.x, this.y + FRAME_PX * 0.3);
    if (frame.sprites) this.drawSprite(state, y, moving);
    else this.hideSprite();

    const labels = frame.labels || spotlit;
    if (frame.textScale !== this.textScale) {
      this.textScale = frame.textScale;
      for (const t of [this.label, this.emoji, this.bubble]) t?.setScale(frame.textScale);
    }
    this.label.setVisible(labels);
    if (labels) this.label.setPosition(this.x, this.y + FRAME_PX * 0.32);
    this.asleep = state.asleep;
    const emoji = state.asleep ? '😴' : state.emoji;
    if (emoji !== this.shownEmoji) {
      this.shownEmoji = emoji;
      if (emoji) {
        const f = this.atlases.emoji.frameOf(emoji);
        this.emoji.setTexture(f.key, f.frame);
      }
    }
    this.wantsEmoji = labels && emoji !== '';
    this.emoji.setVisible(this.wantsEmoji && !this.emojiYields);
    if (labels) this.emoji.setPosition(this.x, this.y - FRAME_PX * 0.55);
    this.updateBubble(state.speech, labels);
    return true;
  }

  /**
   * The state's walk (null: none), copied out once: each element read from the state's array is a call
   * through its proxy, and a town of a thousand placed every walker from its first waypoint every frame.
   */
  private walkOf(state: AgentState, mapWidth: number): Walk | null {
    const path = state.path;
    // The server sends a new walk as a new array (rooms/stateSync.ts): the same array is the same walk.
    const w = this.walk;
    if (w && w.source === path && w.startGameMs === state.pathStartGameMs && w.speed === state.tilesPerGameMinute && w.mapWidth === mapWidth) return w;
    if (path === this.noWalk) return null;
    if (path.length < 2) {
      this.walk = null;
      this.noWalk = path;
      return null;
    }
    const copy = Array.from(path);
    const end = positionOnPath(copy, mapWidth, 0, 0, 0);
    const speed = state.tilesPerGameMinute;
    return (this.walk = {
      source: path,
      path: copy,
      startGameMs: state.pathStartGameMs,
      speed,
      mapWidth,
      // As positionOnPath: no speed is already there.
      endGameMs: speed > 0 ? arrivalGameMs(state.pathStartGameMs, pathLength(copy, mapWidth), speed) : -Infinity,
      endX: end.x,
      endY: end.y,
      endDirection: end.direction,
    });
  }

  private drawSprite(state: AgentState, tileY: number, moving: boolean): void {
    this.sprite.setVisible(true);
    const depth = 10 + tileY / 1000;
    if (this.sprite.depth !== depth) this.sprite.setDepth(depth);
    if (moving !== this.walking || (moving && this.sprite.anims.currentAnim?.key !== `${this.textureKey}-walk-${this.direction}`)) {
      this.walking = moving;
      if (moving) this.sprite.play(`${this.textureKey}-walk-${this.direction}`, true);
      else this.sprite.stop();
    }
    if (!moving) this.sprite.setFrame(standingFrame(state.asleep ? 'down' : this.direction));
    this.sprite.setAlpha(state.asleep ? 0.75 : 1);
  }

  /** No sprite drawn, no walk cycle running. */
  private hideSprite(): void {
    this.sprite.setVisible(false);
    if (this.walking) {
      this.sprite.stop();
      this.walking = false;
    }
  }

  private updateBubble(speech: string, labels: boolean): void {
    const text = speech.length > BUBBLE_MAX_CHARS ? `${speech.slice(0, BUBBLE_MAX_CHARS - 1)}…` : speech;
    this.wantsBubble = labels && text !== '';
    // Made and written only when it shows (or yields): a Text draws itself into a canvas at each new line, and a
    // town of a thousand has a hundred talking at any time.
    if (!this.wantsBubble) {
      this.bubble?.setVisible(false);
      return;
    }
    if (!this.bubble) {
      this.bubble = this.scene.add
        .text(0, 0, '', {
          fontFamily: 'system-ui, sans-serif',
          fontSize: '11px',
          color: '#1b1b24',
          backgroundColor: '#fdfcf5',
          padding: { x: 5, y: 3 },
          wordWrap: { width: 180 },
        })
        .setOrigin(0.5, 1)
        .setDepth(12)
        .setScale(this.textScale);
    }
    if (text !== this.shownSpeech) {
      this.shownSpeech = text;
      this.bubble.setText(text);
    }
    this.bubble.setVisible(!this.bubbleYields).setPosition(this.x, this.y - FRAME_PX * 1.1);
  }

  /** A new look: its palette-swapped texture, standing until the next walk starts. */
  private redress(state: AgentState): void {
    this.look = { skin: state.skin, hair: state.hair, shirt: state.shirt, pants: state.pants };
    this.textureKey = ensureCharacterTexture(this.scene, this.look);
    this.sprite.stop();
    this.sprite.setTexture(this.textureKey, standingFrame(this.direction));
    this.walking = false;
  }

  private rename(name: string): void {
    this.name = name;
    const f = this.atlases.names.frameOf(name.split(' ')[0]);
    this.label.setTexture(f.key, f.frame);
  }

  /** Off screen: nothing drawn, no walk cycle running. */
  private hide(): void {
    this.drawn = false;
    this.dropParts();
  }

  /**
   * Sprite, name, emoji and bubble hidden and off the display list: Phaser looks at every object on it each
   * frame (thirty thousand for ten thousand agents), so only agents drawn as more than a dot have theirs there.
   */
  private dropParts(): void {
    if (!this.partsShown) return;
    this.hideSprite();
    for (const o of [this.sprite, this.label, this.emoji, this.bubble]) o?.setVisible(false).removeFromDisplayList();
    this.partsShown = false;
  }

  private showParts(): void {
    if (this.partsShown) return;
    for (const o of [this.sprite, this.label, this.emoji, this.bubble]) o?.addToDisplayList();
    this.partsShown = true;
  }

  destroy(): void {
    this.sprite.destroy();
    this.label.destroy();
    this.emoji.destroy();
    this.bubble?.destroy();
  }
}
