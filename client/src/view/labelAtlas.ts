// Small texts drawn once into one shared texture (names, emoji), each a frame of it. A thousand name
// labels are then a thousand images of one texture: no canvas per label, and the WebGL renderer draws
// them in one batch. Texts are packed in rows; a full page starts another texture.
import Phaser from 'phaser';

export interface AtlasStyle {
  font: string;
  color: string;
  stroke?: string;
  strokePx?: number;
  /** Height of a row, px: the text's height with its stroke. */
  rowPx: number;
}

const PAGE_PX = 1024;
const GAP_PX = 2;

interface Page {
  key: string;
  texture: Phaser.Textures.CanvasTexture;
  x: number;
  y: number;
  dirty: boolean;
}

export class LabelAtlas {
  private readonly pages: Page[] = [];
  private readonly frames = new Map<string, { key: string; frame: string; width: number }>();
  private measurer: CanvasRenderingContext2D | null = null;

  constructor(
    private readonly scene: Phaser.Scene,
    private readonly name: string,
    private readonly style: AtlasStyle,
  ) {}

  /** The texture key and frame that show `text` (drawn now if it is new). */
  frameOf(text: string): { key: string; frame: string; width: number } {
    const known = this.frames.get(text);
    if (known) return known;
    const width = this.widthOf(text);
    let page = this.pages[this.pages.length - 1];
    if (!page || page.x + width + GAP_PX > PAGE_PX) {
      if (page) {
        page.x = 0;
        page.y += this.style.rowPx + GAP_PX;
      }
      if (!page || page.y + this.style.rowPx > PAGE_PX) page = this.addPage();
    }
    const ctx = page.texture.context;
    ctx.font = this.style.font;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    const cx = page.x + width / 2;
    const cy = page.y + this.style.rowPx / 2;
    if (this.style.stroke && this.style.strokePx) {
      ctx.lineWidth = this.style.strokePx;
      ctx.lineJoin = 'round';
      ctx.strokeStyle = this.style.stroke;
      ctx.strokeText(text, cx, cy);
    }
    ctx.fillStyle = this.style.color;
    ctx.fillText(text, cx, cy);
    const frame = `${this.frames.size}`;
    page.texture.add(frame, 0, page.x, page.y, width, this.style.rowPx);
    page.x += width + GAP_PX;
    page.dirty = true;
    const entry = { key: page.key, frame, width };
    this.frames.set(text, entry);
    return entry;
  }

  /** The width `text` has (will have) in the atlas, px, its stroke included: measured, not drawn. */
  widthOf(text: string): number {
    return this.frames.get(text)?.width ?? Math.min(PAGE_PX - 2 * GAP_PX, Math.ceil(this.measure(text)) + 2 * (this.style.strokePx ?? 0) + 2);
  }

  /** Sends what was drawn since the last call to the GPU (once a frame, not once a text). */
  flush(): void {
    for (const page of this.pages)
      if (page.dirty) {
        page.texture.refresh();
        page.dirty = false;
      }
  }

  private addPage(): Page {
    const key = `${this.name}-${this.pages.length}`;
    const texture = this.scene.textures.createCanvas(key, PAGE_PX, PAGE_PX);
    if (!texture) throw new Error(`cannot make the ${key} texture`);
    const page = { key, texture, x: 0, y: 0, dirty: false };
    this.pages.push(page);
    return page;
  }

  private measure(text: string): number {
    this.measurer ??= document.createElement('canvas').getContext('2d');
    if (!this.measurer) return text.length * 8;
    this.measurer.font = this.style.font;
    return this.measurer.measureText(text).width;
  }
}
