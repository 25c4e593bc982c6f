// Entry point: connect to the town, then start Phaser with Boot -> Preloader -> Town.
import Phaser from 'phaser';
import { Boot } from './scenes/Boot';
import { Preloader } from './scenes/Preloader';
import { Town } from './scenes/Town';
import { connectToTown, type TownConnection } from './net/townConnection';
import { Hud } from './ui/hud';
import { Inspector } from './ui/inspector';
import { FeedPanel } from './ui/feed';
import { buildHelp } from './ui/help';
import { isTownsPage, mountTownsLink, showTownsPage, withWorld } from './ui/towns';

declare global {
  interface Window {
    /** Test hooks for the browser tests; read-only views of what is on screen. */
    __smalltown?: {
      ready: boolean;
      scene: string;
      agents(): Array<{ id: string; name: string; x: number; y: number; worldX: number; worldY: number; action: string; emoji: string }>;
      follow(id: string | null): void;
      inspected(): string | null;
      followed(): string | null;
    };
  }
}

const status = document.getElementById('status')!;

async function start(): Promise<void> {
  status.textContent = 'connecting to the town…';
  let connection: TownConnection;
  let mapUrl = '/maps/town.tmj';
  try {
    const res = await fetch(withWorld('/api/town'));
    const info = (await res.json()) as { name: string; mapUrl: string; error?: string };
    if (!res.ok) throw new Error(`${info.error ?? res.statusText} (see /towns)`);
    mapUrl = info.mapUrl;
    connection = await connectToTown(info.name);
  } catch (error) {
    status.textContent = `Could not join the town: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  connection.on('error', (m) => {
    const e = m as { type: string; message: string };
    status.textContent = `${e.type}: ${e.message}`;
  });
  status.textContent = '';
  mountTownsLink();
  const hud = new Hud(connection);
  const inspector = new Inspector(connection, document.getElementById('panel')!);
  hud.onShowAgent = (id) => inspector.show(id);
  new FeedPanel(connection, document.getElementById('log')!);
  const help = document.getElementById('help')!;
  buildHelp(help);
  document.getElementById('hud-help')!.addEventListener('click', () => (help.hidden = !help.hidden));
  const game = new Phaser.Game({
    type: Phaser.AUTO,
    parent: 'game',
    backgroundColor: '#1d2330',
    pixelArt: true,
    scale: { mode: Phaser.Scale.RESIZE, width: window.innerWidth, height: window.innerHeight },
    scene: [Boot, Preloader, Town],
  });
  game.registry.set('connection', connection);
  game.registry.set('hud', hud);
  inspector.onClose = () => town().follow(null);
  game.registry.set('mapUrl', mapUrl);
  const town = () => game.scene.getScene('Town') as Town;
  window.__smalltown = {
    ready: false,
    get scene() {
      return game.scene.getScenes(true).map((s) => s.scene.key).join(',');
    },
    agents() {
      const scene = town();
      const cam = scene.cameras.main;
      return [...scene.agents.values()].map((v) => {
        const a = connection.state.agents.get(v.id)!;
        return { id: v.id, name: a.name, worldX: v.x, worldY: v.y, x: (v.x - cam.worldView.x) * cam.zoom, y: (v.y - cam.worldView.y) * cam.zoom, action: a.action, emoji: a.emoji };
      });
    },
    follow: (id) => town().follow(id),
    inspected: () => inspector.shown,
    followed: () => town().followedId,
  };
  game.events.on('step', () => {
    const hooks = window.__smalltown!;
    if (!hooks.ready && game.scene.isActive('Town') && town().agents.size > 0) hooks.ready = true;
  });
}

if (isTownsPage()) showTownsPage();
else void start();
