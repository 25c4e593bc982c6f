// Per-agent character textures: the base template (client/public/assets/characters-base.png) drawn in
// marker colours (skin red, hair green, shirt blue, pants yellow; three shading levels) is repainted
// with each agent's colours. One texture and one set of walk animations per colour combination.
import type Phaser from 'phaser';
import { DIRECTIONS } from '@protocol/movement';

export const FRAME_PX = 32;
export const TEMPLATE_KEY = 'characters-base';

export interface Look {
  skin: string;
  hair: string;
  shirt: string;
  pants: string;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function lookKey(look: Look): string {
  return `char-${look.skin}-${look.hair}-${look.shirt}-${look.pants}`.replace(/#/g, '');
}

/** Which marker a template pixel is, and its shading level (1, 0.75 or 0.5), or null. */
export function classifyMarker(r: number, g: number, b: number): { part: keyof Look; level: number } | null {
  const level = Math.max(r, g, b) / 255;
  if (level < 0.4) return null;
  if (r > 0 && g === 0 && b === 0) return { part: 'skin', level };
  if (r === 0 && g > 0 && b === 0) return { part: 'hair', level };
  if (r === 0 && g === 0 && b > 0) return { part: 'shirt', level };
  if (r > 0 && r === g && b === 0) return { part: 'pants', level };
  return null;
}

/** Repaints the template's marker pixels (RGBA) in a look's colours, in place. The persona editor draws its preview with it too. */
export function paintLook(d: Uint8ClampedArray, look: Look): void {
  const colours = { skin: rgb(look.skin), hair: rgb(look.hair), shirt: rgb(look.shirt), pants: rgb(look.pants) };
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    const m = classifyMarker(d[i], d[i + 1], d[i + 2]);
    if (!m) continue;
    const [r, g, b] = colours[m.part];
    d[i] = Math.round(r * m.level);
    d[i + 1] = Math.round(g * m.level);
    d[i + 2] = Math.round(b * m.level);
  }
}

export function ensureCharacterTexture(scene: Phaser.Scene, look: Look): string {
  const key = lookKey(look);
  if (scene.textures.exists(key)) return key;
  const source = scene.textures.get(TEMPLATE_KEY).getSourceImage() as HTMLImageElement;
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(source, 0, 0);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  paintLook(image.data, look);
  ctx.putImageData(image, 0, 0);
  const texture = scene.textures.addCanvas(key, canvas)!;
  const columns = Math.floor(canvas.width / FRAME_PX);
  for (let row = 0; row < DIRECTIONS.length; row++)
    for (let col = 0; col < columns; col++) texture.add(row * columns + col, 0, col * FRAME_PX, row * FRAME_PX, FRAME_PX, FRAME_PX);
  DIRECTIONS.forEach((dir, row) => {
    scene.anims.create({
      key: `${key}-walk-${dir}`,
      frames: [0, 1, 2, 3].map((c) => ({ key, frame: row * columns + c })),
      frameRate: 8,
      repeat: -1,
    });
  });
  return key;
}

export function standingFrame(direction: (typeof DIRECTIONS)[number]): number {
  return DIRECTIONS.indexOf(direction) * 4;
}
