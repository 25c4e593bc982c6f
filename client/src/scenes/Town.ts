import Phaser from 'phaser';
import type { TownConnection } from '../net/townConnection';
import { AgentView } from '../view/AgentView';
import { drawnLayers } from '../view/mapLayers';
import { MAP_KEY } from './Preloader';
import type { Hud } from '../ui/hud';

// Layers marked to go above the agents are drawn over them (and over their labels).
const ABOVE_AGENTS_DEPTH = 1000;
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 3;

/** The live town: the tile map, one view per agent, and the camera. Networking and DOM live elsewhere. */
export class Town extends Phaser.Scene {
  readonly agents = new Map<string, AgentView>();
  private connection!: TownConnection;
  private hud!: Hud;
  private followed: string | null = null;
  private tilePx = 32;
  private dragFrom: { x: number; y: number; scrollX: number; scrollY: number } | null = null;

  constructor() {
    super('Town');
  }

  create(): void {
    this.connection = this.registry.get('connection') as TownConnection;
    this.hud = this.registry.get('hud') as Hud;
    const map = this.make.tilemap({ key: MAP_KEY });
    this.tilePx = map.tileWidth;
    const data = this.cache.tilemap.get(MAP_KEY).data as Parameters<typeof drawnLayers>[0] & { tilesets: Array<{ name: string }> };
    const tilesets = data.tilesets.map((ts) => map.addTilesetImage(ts.name, `tileset-${ts.name}`)).filter((t): t is Phaser.Tilemaps.Tileset => t !== null);
    for (const layer of drawnLayers(data)) map.createLayer(layer.name, tilesets, 0, 0)?.setDepth(layer.above ? ABOVE_AGENTS_DEPTH : 0);

    const camera = this.cameras.main;
    camera.setBounds(0, 0, map.widthInPixels, map.heightInPixels);
    camera.setZoom(1);
    camera.centerOn(map.widthInPixels / 2, map.heightInPixels / 2);

    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer, over: Phaser.GameObjects.GameObject[]) => {
      const agentId = over.map((o) => o.getData('agentId') as string | undefined).find(Boolean);
      if (agentId) this.follow(agentId);
      else this.dragFrom = { x: pointer.x, y: pointer.y, scrollX: camera.scrollX, scrollY: camera.scrollY };
    });
    this.input.on('pointermove', (pointer: Phaser.Input.Pointer) => {
      if (!this.dragFrom || !pointer.isDown) return;
      const dx = (pointer.x - this.dragFrom.x) / camera.zoom;
      const dy = (pointer.y - this.dragFrom.y) / camera.zoom;
      if (Math.abs(dx) + Math.abs(dy) > 4 && this.followed) this.follow(null);
      camera.setScroll(this.dragFrom.scrollX - dx, this.dragFrom.scrollY - dy);
    });
    this.input.on('pointerup', (pointer: Phaser.Input.Pointer) => {
      // A click (not a drag) on empty ground stops following.
      if (this.dragFrom && Math.abs(pointer.x - this.dragFrom.x) + Math.abs(pointer.y - this.dragFrom.y) < 4 && this.followed) this.follow(null);
      this.dragFrom = null;
    });
    this.input.on('wheel', (_p: unknown, _o: unknown, _dx: number, dy: number) => this.zoomBy(dy > 0 ? 0.9 : 1.1));
    // Shortcuts (listed in the help overlay, ui/help.ts). Typing in a field is not a shortcut.
    window.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      const help = document.getElementById('help')!;
      const pan = 200 / camera.zoom;
      if (e.key === '+' || e.key === '=') this.zoomBy(1.2);
      else if (e.key === '-') this.zoomBy(1 / 1.2);
      else if (e.key === 'Escape') {
        if (!help.hidden) help.hidden = true;
        else this.follow(null);
      } else if (e.key === '?') help.hidden = !help.hidden;
      else if (e.key === ' ') {
        e.preventDefault();
        this.hud.togglePause();
      } else if (/^[1-5]$/.test(e.key)) this.hud.setRate(Number(e.key) - 1);
      else if (e.key === 'f' || e.key === 'F') {
        e.preventDefault();
        this.hud.focusFind();
      } else if (e.key === 'ArrowLeft') camera.scrollX -= pan;
      else if (e.key === 'ArrowRight') camera.scrollX += pan;
      else if (e.key === 'ArrowUp') camera.scrollY -= pan;
      else if (e.key === 'ArrowDown') camera.scrollY += pan;
    });
    this.hud.onFind((id) => this.follow(id));
  }

  zoomBy(factor: number): void {
    const camera = this.cameras.main;
    camera.setZoom(Phaser.Math.Clamp(camera.zoom * factor, MIN_ZOOM, MAX_ZOOM));
  }

  follow(id: string | null): void {
    this.followed = id;
    const view = id ? this.agents.get(id) : undefined;
    if (view) this.cameras.main.startFollow(view.sprite, true, 0.15, 0.15);
    else this.cameras.main.stopFollow();
    this.hud.showAgent(view ? id : null);
  }

  get followedId(): string | null {
    return this.followed;
  }

  override update(): void {
    const state = this.connection.state;
    const now = this.connection.gameNow();
    const seen = new Set<string>();
    state.agents.forEach((agent, id) => {
      seen.add(id);
      let view = this.agents.get(id);
      if (!view) {
        view = new AgentView(this, id, agent, this.tilePx);
        this.agents.set(id, view);
      }
      view.update(agent, state.mapWidth, now);
    });
    for (const [id, view] of this.agents)
      if (!seen.has(id)) {
        view.destroy();
        this.agents.delete(id);
        if (this.followed === id) this.follow(null);
      }
    this.hud.update(now);
  }
}
