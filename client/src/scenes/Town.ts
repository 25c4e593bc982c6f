import Phaser from 'phaser';
import type { PlaceTree } from '@protocol/places';
import type { TownConnection } from '../net/townConnection';
import type { AgentView } from '../view/AgentView';
import { AgentCrowd } from '../view/AgentCrowd';
import { MapBackdrop, phaserLayerPainter, tileDataPainter, type MapPainter } from '../view/MapBackdrop';
import { TilePainter, type TiledMapJson } from '../view/tilePainter';
import { PlaceLabels } from '../view/PlaceLabels';
import { drawnLayers, type DrawnLayer } from '../view/mapLayers';
import { TownCamera } from '../view/TownCamera';
import { MAP_KEY } from './Preloader';

// Layers marked to go above the agents are drawn over them (and over their labels).
const ABOVE_AGENTS_DEPTH = 1000;
/** A press that moves less than this (screen px) is a click, not a drag. */
const CLICK_SLOP_PX = 4;

/** What the page gives the scene (set in the registry by main): the place tree, the bars, the panels. */
export interface TownHost {
  places: PlaceTree;
  /** Heights of the clock bar and the bottom bar, the side log's right edge, and how far the inspector covers from the right, px. */
  insets(): { top: number; bottom: number; left: number; right: number };
  /** An agent was picked (or null: none); the inspector follows. */
  onPick(id: string | null): void;
  /** Once a frame, with the game time shown: the DOM panels update. */
  onFrame(gameNow: number): void;
}

/** The live town: the tile map, place names, one view per agent, and the camera. Networking and DOM live elsewhere. */
export class Town extends Phaser.Scene {
  readonly agents = new Map<string, AgentView>();
  view!: TownCamera;
  labels!: PlaceLabels;
  private crowd!: AgentCrowd;
  private backdrop!: MapBackdrop;
  private connection!: TownConnection;
  private host!: TownHost;
  private followed: string | null = null;
  private tilePx = 32;
  private drag: { x: number; y: number; lastX: number; lastY: number; moved: boolean } | null = null;

  constructor() {
    super('Town');
  }

  create(): void {
    // Marks for the benchmark of a big town's load (bench/client.ts): the map read, then painted.
    performance.mark('smalltown:town-create');
    this.connection = this.registry.get('connection') as TownConnection;
    this.host = this.registry.get('host') as TownHost;
    const data = this.cache.json.get(MAP_KEY) as TiledMapJson;
    this.tilePx = data.tilewidth;
    const drawn = drawnLayers(data);
    const tileset = (name: string) =>
      this.textures.exists(`tileset-${name}`) ? (this.textures.get(`tileset-${name}`).getSourceImage() as HTMLImageElement) : null;
    const tiles = TilePainter.open(data, drawn, tileset);
    const painter = typeof tiles === 'string' ? this.phaserPainter(data, drawn) : tileDataPainter(this, tiles);
    performance.mark('smalltown:map-read');
    this.backdrop = new MapBackdrop(this, painter, ABOVE_AGENTS_DEPTH);
    performance.mark('smalltown:map-painted');
    this.crowd = new AgentCrowd(this, this.agents, this.tilePx);
    this.labels = new PlaceLabels(this, this.host.places, this.tilePx);

    this.view = new TownCamera(this.cameras.main, painter.widthPx, painter.heightPx);
    this.layout();
    this.view.showWholeTownNow();
    this.scale.on('resize', () => this.layout());

    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer) => {
      // The world point under the pointer, from what the camera showed (its view, not its matrix, which may be a frame behind).
      const cam = this.cameras.main;
      const wx = cam.worldView.x + (pointer.x - cam.x) / cam.zoom;
      const wy = cam.worldView.y + (pointer.y - cam.y) / cam.zoom;
      const agentId = this.crowd.pick(wx, wy, cam.zoom);
      if (agentId) this.follow(agentId);
      else this.drag = { x: pointer.x, y: pointer.y, lastX: pointer.x, lastY: pointer.y, moved: false };
    });
    this.input.on('pointermove', (pointer: Phaser.Input.Pointer) => {
      const d = this.drag;
      if (!d || !pointer.isDown) return;
      if (!d.moved && Math.abs(pointer.x - d.x) + Math.abs(pointer.y - d.y) <= CLICK_SLOP_PX) return;
      // A drag moves the camera off whoever it followed; the inspector stays on them.
      if (!d.moved && this.followed) this.letGo();
      d.moved = true;
      this.view.panBy(d.lastX - pointer.x, d.lastY - pointer.y);
      d.lastX = pointer.x;
      d.lastY = pointer.y;
    });
    this.input.on('pointerup', () => {
      // A click (not a drag) on empty ground stops following.
      if (this.drag && !this.drag.moved && this.followed) this.follow(null);
      this.drag = null;
    });
    this.input.on('wheel', (pointer: Phaser.Input.Pointer, _o: unknown, _dx: number, dy: number) => this.view.zoomBy(dy > 0 ? 0.9 : 1.1, pointer.x, pointer.y));
  }

  /** Phaser's tilemap layers, for a map using what the tile painter does not paint (flipped tiles, layer offsets…). */
  private phaserPainter(data: TiledMapJson, drawn: DrawnLayer[]): MapPainter {
    this.cache.tilemap.add(MAP_KEY, { format: Phaser.Tilemaps.Formats.TILED_JSON, data });
    const map = this.make.tilemap({ key: MAP_KEY });
    const tilesets = data.tilesets.map((ts) => map.addTilesetImage(ts.name, `tileset-${ts.name}`)).filter((t): t is Phaser.Tilemaps.Tileset => t !== null);
    const layers = (above: boolean) =>
      drawn
        .filter((l) => l.above === above)
        .map((l) => map.createLayer(l.name, tilesets, 0, 0))
        .filter((l) => l !== null);
    return phaserLayerPainter(this, map, layers(false), layers(true));
  }

  /** Fits the camera between the bars (after a window resize, or when the clock bar wraps). */
  layout(): void {
    if (!this.view) return;
    const { top, bottom, left, right } = this.host.insets();
    this.view.setViewport(this.scale.width, this.scale.height, top, bottom, left, right);
  }

  follow(id: string | null): void {
    const view = id ? this.agents.get(id) : undefined;
    this.followed = view ? id : null;
    this.view.follow(view?.sprite ?? null);
    this.host.onPick(this.followed);
  }

  /** The camera stops following (to the whole town, or panned or dragged away); the inspector stays on whoever it shows. */
  letGo(): void {
    this.followed = null;
  }

  get followedId(): string | null {
    return this.followed;
  }

  override update(): void {
    const state = this.connection.state;
    const now = this.connection.gameNow();
    const { actors, removed } = this.crowd.update(state.agents, state.mapWidth, now, this.cameras.main, this.followed, this.view.mode === 'auto');
    if (this.followed && removed.includes(this.followed)) this.follow(null);
    this.backdrop.update(this.cameras.main);
    this.view.update(actors);
    this.labels.update(this.cameras.main.zoom, this.cameras.main.worldView);
    this.crowd.yieldMarks(this.labels, this.cameras.main.zoom, this.followed);
    this.host.onFrame(now);
  }
}
