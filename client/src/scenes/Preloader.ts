import Phaser from 'phaser';
import { TEMPLATE_KEY, FRAME_PX } from '../view/characterTextures';

export const MAP_KEY = 'town';

/** Loads the map named by the server, its tileset and the character template, with a progress bar. */
export class Preloader extends Phaser.Scene {
  constructor() {
    super('Preloader');
  }

  init(): void {
    const { width, height } = this.scale;
    this.add.rectangle(width / 2, height / 2, 320, 18).setStrokeStyle(1, 0xf4f1ea);
    const bar = this.add.rectangle(width / 2 - 158, height / 2, 4, 14, 0xf4f1ea).setOrigin(0, 0.5);
    this.load.on('progress', (p: number) => (bar.width = 4 + 312 * p));
  }

  preload(): void {
    const mapUrl = (this.registry.get('mapUrl') as string | undefined) ?? '/maps/town.tmj';
    // As plain JSON: Phaser's tilemap reader would make an object per tile (Town reads the tile data itself).
    this.load.json(MAP_KEY, mapUrl);
    this.load.spritesheet(TEMPLATE_KEY, '/assets/characters-base.png', { frameWidth: FRAME_PX, frameHeight: FRAME_PX });
    // Tileset images are named inside the map: load them once the map JSON is in.
    this.load.once(`filecomplete-json-${MAP_KEY}`, () => {
      const data = this.cache.json.get(MAP_KEY) as { tilesets: Array<{ name: string; image: string }> };
      const base = mapUrl.slice(0, mapUrl.lastIndexOf('/') + 1);
      for (const ts of data.tilesets) this.load.image(`tileset-${ts.name}`, base + ts.image);
    });
  }

  create(): void {
    performance.mark('smalltown:map-loaded');
    this.scene.start('Town');
  }
}
