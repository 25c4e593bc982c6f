import Phaser from 'phaser';

/** Boot: nothing to load yet but the scene chain; the Preloader shows progress. */
export class Boot extends Phaser.Scene {
  constructor() {
    super('Boot');
  }
  create(): void {
    this.scene.start('Preloader');
  }
}
