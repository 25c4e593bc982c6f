// Agents as dots at whole-town zoom, drawn pixel by pixel into one screen-sized canvas shown over the
// map: ten thousand rectangles filled one by one in the 2D canvas took most of a frame (Chromium
// rasterises each), where writing their pixels and handing the canvas over once is a few milliseconds.
import type Phaser from 'phaser';

export class DotLayer {
  private canvas: HTMLCanvasElement | null = null;
  private texture: Phaser.Textures.CanvasTexture | null = null;
  private image: Phaser.GameObjects.Image | null = null;
  private pixels: ImageData | null = null;
  private words: Uint32Array | null = null;
  /** Colours as the canvas's 32-bit pixels, by "#rrggbb". */
  private readonly colours = new Map<string, number>();
  private shown = false;
  /** The view's size (screen px) the dots were last drawn for. */
  private viewWidth = 0;
  private viewHeight = 0;

  constructor(
    private readonly scene: Phaser.Scene,
    private readonly key: string,
    private readonly depth: number,
  ) {}

  /**
   * Draws the dots (world px, in flat x, y pairs by colour) as squares of `sidePx` screen px whose bottom
   * middle is at each point; none: nothing drawn.
   */
  draw(dots: Map<string, number[]>, camera: Phaser.Cameras.Scene2D.Camera, sidePx: number): void {
    if (dots.size === 0) {
      if (this.shown) this.image?.setVisible(false);
      this.shown = false;
      return;
    }
    const width = Math.max(1, Math.ceil(camera.width));
    const height = Math.max(1, Math.ceil(camera.height));
    const words = this.fit(width, height);
    const stride = this.canvas!.width;
    // The view changed size: clear all the canvas once, so nothing drawn for the old view stays outside the new one.
    const resized = width !== this.viewWidth || height !== this.viewHeight;
    this.viewWidth = width;
    this.viewHeight = height;
    words.fill(0, 0, resized ? words.length : stride * height);
    const { x: left, y: top } = camera.worldView;
    const zoom = camera.zoom;
    const side = Math.max(1, Math.round(sidePx));
    for (const [colour, xy] of dots) {
      const c = this.colourOf(colour);
      for (let i = 0; i < xy.length; i += 2) {
        const x0 = Math.round((xy[i] - left) * zoom - side / 2);
        const y0 = Math.round((xy[i + 1] - top) * zoom - side);
        for (let y = Math.max(0, y0); y < Math.min(height, y0 + side); y++) {
          const row = y * stride;
          for (let x = Math.max(0, x0); x < Math.min(width, x0 + side); x++) words[row + x] = c;
        }
      }
    }
    // Only the view's part: the canvas may be bigger (see `fit`).
    this.canvas!.getContext('2d')!.putImageData(this.pixels!, 0, 0, 0, 0, resized ? stride : width, resized ? this.canvas!.height : height);
    this.texture!.refresh();
    // In the world, where the view is, scaled so that a canvas pixel is a screen pixel.
    this.image!.setPosition(left, top)
      .setScale(1 / zoom)
      .setVisible(true);
    this.shown = true;
  }

  /**
   * The canvas, at least the view's size, its pixels as words. It only grows, to the game's size at once: a
   * view that shrinks when a panel opens (the inspector, on a click that follows an agent) made a new
   * screen-sized canvas texture in that click's frame, which reads all its pixels back when made.
   */
  private fit(viewWidth: number, viewHeight: number): Uint32Array {
    if (this.canvas && this.canvas.width >= viewWidth && this.canvas.height >= viewHeight) return this.words!;
    const width = Math.max(viewWidth, Math.ceil(this.scene.scale.width), this.canvas?.width ?? 0);
    const height = Math.max(viewHeight, Math.ceil(this.scene.scale.height), this.canvas?.height ?? 0);
    if (this.texture) this.scene.textures.remove(this.key);
    this.texture = this.scene.textures.createCanvas(this.key, width, height);
    this.canvas = this.texture!.canvas;
    this.pixels = this.canvas.getContext('2d')!.createImageData(width, height);
    this.words = new Uint32Array(this.pixels.data.buffer);
    if (this.image) this.image.setTexture(this.key);
    else this.image = this.scene.add.image(0, 0, this.key).setOrigin(0, 0).setDepth(this.depth);
    return this.words;
  }

  /** "#rrggbb" as an opaque pixel of the canvas (bytes R, G, B, A in memory). */
  private colourOf(hex: string): number {
    let c = this.colours.get(hex);
    if (c === undefined) {
      const n = Number.parseInt(hex.slice(1), 16);
      c = (0xff000000 | ((n & 255) << 16) | (n & 0xff00) | ((n >> 16) & 255)) >>> 0;
      this.colours.set(hex, c);
    }
    return c;
  }
}
