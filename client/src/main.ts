// Entry point: join the town (asking what to do when a token is refused), build the DOM panels, then
// start Phaser with Boot -> Preloader -> Town.
import Phaser from 'phaser';
import type { TownInfo } from '@protocol/api';
import type { ErrorReply } from '@protocol/messages';
import { Boot } from './scenes/Boot';
import { Preloader } from './scenes/Preloader';
import { Town, type TownHost } from './scenes/Town';
import { connectToTown, forgetToken, isTokenRefused, rememberToken, takeToken, type TownConnection } from './net/townConnection';
import { fetchTownInfo } from './net/api';
import { Hud, type ViewControls } from './ui/hud';
import { Inspector } from './ui/inspector';
import { FeedPanel } from './ui/feed';
import { OperatorTools } from './ui/operatorTools';
import { buildHelp } from './ui/help';
import { installShortcuts } from './ui/keyboard';
import { watchInsets } from './ui/layout';
import { askForToken, tokenDialogOpen } from './ui/tokenDialog';
import { isTownsPage, mountTownsLink, showTownsPage } from './ui/towns';

declare global {
  interface Window {
    /** Test hooks for the browser tests; read-only views of what is on screen. */
    __smalltown?: {
      ready: boolean;
      scene: string;
      /** Agents with their world position and their position on the page (x, y), and whether that is inside the town's viewport. */
      agents(): Array<{ id: string; name: string; x: number; y: number; worldX: number; worldY: number; onScreen: boolean; action: string; emoji: string }>;
      camera(): {
        mode: string; zoom: number; fitZoom: number; centerX: number; centerY: number; watched: string[];
        viewport: { x: number; y: number; width: number; height: number }; map: { width: number; height: number };
      };
      /** Place names drawn on the map: visible ones with their box on the page. */
      placeLabels(): Array<{ text: string; kind: string; visible: boolean; left: number; top: number; width: number; height: number }>;
      follow(id: string | null): void;
      inspected(): string | null;
      /** How many inspector replies have been drawn: each refresh adds one. */
      inspectorReplies(): number;
      followed(): string | null;
    };
  }
}

const status = document.getElementById('status')!;

/**
 * Whether WebGL runs on a GPU. Without one (software WebGL: SwiftShader, llvmpipe) the browser's 2D canvas
 * draws this town ten times faster, and a page at a few frames a second is slow to answer keys and clicks.
 */
function hardwareWebGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl', { failIfMajorPerformanceCaveat: true });
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return !/swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer);
}

async function join(world: string): Promise<TownConnection> {
  let token = takeToken();
  for (;;) {
    try {
      return await connectToTown(world, token);
    } catch (error) {
      if (!token || !isTokenRefused(error)) throw error;
      forgetToken();
      status.textContent = 'The operator token was not accepted.';
      token = await askForToken('refused');
      if (token) rememberToken(token);
      status.textContent = 'connecting to the town…';
    }
  }
}

async function start(): Promise<void> {
  status.textContent = 'connecting to the town…';
  let connection: TownConnection;
  let info: TownInfo;
  try {
    info = await fetchTownInfo().catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (see /towns)`);
    });
    connection = await join(info.name);
  } catch (error) {
    status.textContent = `Could not join the town: ${error instanceof Error ? error.message : String(error)}. `;
    const retry = Object.assign(document.createElement('button'), { type: 'button', textContent: 'try again', onclick: () => location.reload() });
    status.append(retry);
    return;
  }
  status.textContent = '';
  mountTownsLink();
  const hud = new Hud(connection);
  connection.on('error', (m) => {
    const e = m as ErrorReply;
    hud.say(`${e.type}: ${e.message}`);
  });
  const inspector = new Inspector(connection, document.getElementById('panel')!);
  const tools = new OperatorTools(connection, document.getElementById('tools')!, info.places);
  new FeedPanel(connection, document.getElementById('log')!);
  const help = document.getElementById('help')!;
  buildHelp(help);
  document.getElementById('hud-help')!.addEventListener('click', () => (help.hidden = !help.hidden));
  hud.onToolsButton = () => tools.toggle();
  hud.onTokenButton = () => {
    void askForToken('enter').then((token) => {
      if (!token) return;
      rememberToken(token);
      location.reload();
    });
  };

  const game = new Phaser.Game({
    type: hardwareWebGl() ? Phaser.WEBGL : Phaser.CANVAS,
    parent: 'game',
    backgroundColor: '#1d2330',
    pixelArt: true,
    scale: { mode: Phaser.Scale.RESIZE, width: window.innerWidth, height: window.innerHeight },
    scene: [Boot, Preloader, Town],
  });
  const town = () => game.scene.getScene('Town') as Town;
  const townReady = () => game.scene.isActive('Town') && town().view !== undefined;
  const insets = watchInsets(() => {
    if (townReady()) town().layout();
  });
  const host: TownHost = {
    places: info.places,
    insets,
    onPick: (id) => inspector.show(id),
    onFrame: (now) => {
      hud.update(now);
      inspector.tick();
      tools.tick();
    },
  };
  game.registry.set('connection', connection);
  game.registry.set('host', host);
  game.registry.set('mapUrl', info.mapUrl);
  inspector.onClose = () => town().follow(null);
  hud.onFind((id) => town().follow(id));
  const view: ViewControls = {
    autoFollow: () => townReady() && town().view.mode === 'auto',
    setAutoFollow: (on) => {
      if (!townReady()) return;
      if (on) town().follow(null);
      town().view.setAutoFollow(on);
    },
    showWholeTown: () => {
      if (!townReady()) return;
      town().follow(null);
      town().view.showWholeTown();
    },
  };
  hud.bindView(view);
  installShortcuts({
    zoomBy: (f) => {
      if (townReady()) town().view.zoomBy(f);
    },
    panBy: (dx, dy) => {
      if (!townReady()) return;
      if (town().followedId) town().follow(null);
      town().view.panBy(dx, dy);
    },
    showWholeTown: view.showWholeTown,
    toggleAutoFollow: () => view.setAutoFollow(!view.autoFollow()),
    togglePause: () => hud.togglePause(),
    setRate: (i) => hud.setRate(i),
    focusFind: () => hud.focusFind(),
    toggleHelp: () => (help.hidden = !help.hidden),
    toggleTools: () => tools.toggle(),
    closeOverlay: () => {
      if (help.hidden) return tools.close();
      help.hidden = true;
      return true;
    },
    closeInspector: () => {
      if (townReady()) town().follow(null);
      else inspector.show(null);
    },
    modalOpen: tokenDialogOpen,
  });

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
        const x = cam.x + (v.x - cam.worldView.x) * cam.zoom;
        const y = cam.y + (v.y - cam.worldView.y) * cam.zoom;
        const onScreen = x >= cam.x && x < cam.x + cam.width && y >= cam.y && y < cam.y + cam.height;
        return { id: v.id, name: a.name, worldX: v.x, worldY: v.y, x, y, onScreen, action: a.action, emoji: a.emoji };
      });
    },
    camera() {
      const scene = town();
      const cam = scene.cameras.main;
      const v = scene.view;
      return {
        mode: v.mode, zoom: cam.zoom, fitZoom: v.fitZoom(), centerX: v.centerX(), centerY: v.centerY(), watched: [...v.watched()],
        viewport: { x: cam.x, y: cam.y, width: cam.width, height: cam.height }, map: { width: v.mapWidthPx, height: v.mapHeightPx },
      };
    },
    placeLabels() {
      const scene = town();
      const cam = scene.cameras.main;
      return scene.labels.labels.map((l) => {
        const b = l.object.getBounds();
        const left = cam.x + (b.x - cam.worldView.x) * cam.zoom;
        const top = cam.y + (b.y - cam.worldView.y) * cam.zoom;
        return { text: l.text, kind: l.kind, visible: l.object.visible, left, top, width: b.width * cam.zoom, height: b.height * cam.zoom };
      });
    },
    follow: (id) => town().follow(id),
    inspected: () => inspector.shown,
    inspectorReplies: () => inspector.replies,
    followed: () => town().followedId,
  };
  game.events.on('step', () => {
    const hooks = window.__smalltown!;
    if (!hooks.ready && townReady() && town().agents.size > 0) hooks.ready = true;
  });
}

if (isTownsPage()) showTownsPage();
else void start();
