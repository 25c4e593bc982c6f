// One agent on screen: its sprite with a walk cycle, its name, its action emoji and its speech bubble.
// Positions come from the shared movement module, from the walk the server described once.
import Phaser from 'phaser';
import type { AgentState } from '@protocol/state';
import { positionOnPath, type Direction } from '@protocol/movement';
import { ensureCharacterTexture, standingFrame, FRAME_PX, type Look } from './characterTextures';

const BUBBLE_MAX_CHARS = 90;

export class AgentView {
  readonly sprite: Phaser.GameObjects.Sprite;
  private readonly label: Phaser.GameObjects.Text;
  private readonly emoji: Phaser.GameObjects.Text;
  private readonly bubble: Phaser.GameObjects.Text;
  private textureKey: string;
  /** The look and name drawn, to notice when an edited persona takes over. */
  private look: Look;
  private name: string;
  private direction: Direction = 'down';
  private walking = false;
  /** World position in px, for the camera and the test hooks. */
  x = 0;
  y = 0;

  constructor(
    private readonly scene: Phaser.Scene,
    readonly id: string,
    state: AgentState,
    private readonly tilePx: number,
  ) {
    this.textureKey = ensureCharacterTexture(scene, state);
    this.look = { skin: state.skin, hair: state.hair, shirt: state.shirt, pants: state.pants };
    this.name = state.name;
    this.sprite = scene.add.sprite(0, 0, this.textureKey, 0).setOrigin(0.5, 0.8).setDepth(10).setInteractive({ useHandCursor: true });
    this.sprite.setData('agentId', id);
    const textStyle = { fontFamily: 'system-ui, sans-serif', fontSize: '11px', color: '#ffffff', stroke: '#1b1b24', strokeThickness: 3 };
    this.label = scene.add.text(0, 0, state.name.split(' ')[0], textStyle).setOrigin(0.5, 0).setDepth(11).setInteractive({ useHandCursor: true });
    this.label.setData('agentId', id);
    this.emoji = scene.add.text(0, 0, state.emoji, { fontSize: '15px' }).setOrigin(0.5, 1).setDepth(11);
    this.bubble = scene.add
      .text(0, 0, '', { fontFamily: 'system-ui, sans-serif', fontSize: '11px', color: '#1b1b24', backgroundColor: '#fdfcf5', padding: { x: 5, y: 3 }, wordWrap: { width: 180 } })
      .setOrigin(0.5, 1)
      .setDepth(12)
      .setVisible(false);
  }

  /** Whether the agent walks at this moment (for the auto-follow camera). */
  get isWalking(): boolean {
    return this.walking;
  }

  /** `textScale` keeps the name, emoji and bubble readable when zoomed out (1 / zoom, at least 1). */
  update(state: AgentState, mapWidth: number, gameNow: number, textScale = 1): void {
    if (state.skin !== this.look.skin || state.hair !== this.look.hair || state.shirt !== this.look.shirt || state.pants !== this.look.pants) this.redress(state);
    if (state.name !== this.name) this.label.setText((this.name = state.name).split(' ')[0]);
    let x = state.tileX;
    let y = state.tileY;
    let moving = false;
    if (state.path.length > 1) {
      const p = positionOnPath(state.path, mapWidth, state.pathStartGameMs, state.tilesPerGameMinute, gameNow);
      x = p.x;
      y = p.y;
      moving = p.moving;
      this.direction = p.direction;
    }
    this.x = (x + 0.5) * this.tilePx;
    this.y = (y + 0.5) * this.tilePx;
    this.sprite.setPosition(this.x, this.y + FRAME_PX * 0.3);
    this.sprite.setDepth(10 + y / 1000);
    if (moving !== this.walking || (moving && this.sprite.anims.currentAnim?.key !== `${this.textureKey}-walk-${this.direction}`)) {
      this.walking = moving;
      if (moving) this.sprite.play(`${this.textureKey}-walk-${this.direction}`, true);
      else this.sprite.stop();
    }
    if (!moving) this.sprite.setFrame(standingFrame(state.asleep ? 'down' : this.direction));
    this.sprite.setAlpha(state.asleep ? 0.75 : 1);
    this.label.setPosition(this.x, this.y + FRAME_PX * 0.32);
    const emoji = state.asleep ? '😴' : state.emoji;
    if (this.emoji.text !== emoji) this.emoji.setText(emoji);
    this.emoji.setPosition(this.x, this.y - FRAME_PX * 0.55);
    const speech = state.speech.length > BUBBLE_MAX_CHARS ? `${state.speech.slice(0, BUBBLE_MAX_CHARS - 1)}…` : state.speech;
    if (this.bubble.text !== speech) this.bubble.setText(speech);
    this.bubble.setVisible(speech !== '');
    this.bubble.setPosition(this.x, this.y - FRAME_PX * 1.1);
    if (this.label.scale !== textScale) for (const t of [this.label, this.emoji, this.bubble]) t.setScale(textScale);
  }

  /** A new look: its texture, and the walk restarted in it. */
  private redress(state: AgentState): void {
    this.look = { skin: state.skin, hair: state.hair, shirt: state.shirt, pants: state.pants };
    this.textureKey = ensureCharacterTexture(this.scene, this.look);
    this.sprite.stop();
    this.sprite.setTexture(this.textureKey, standingFrame(this.direction));
    this.walking = false;
  }

  destroy(): void {
    this.sprite.destroy();
    this.label.destroy();
    this.emoji.destroy();
    this.bubble.destroy();
  }
}
