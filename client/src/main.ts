// Entry point: join the town (asking what to do when a token is refused) or, for a world file that is
// no running town, open its replay; build the DOM panels and the timeline, then start Phaser with
// Boot -> Preloader -> Town. Everything shown reads one connection hub, which switches between the live
// town and this viewer's replay room.
import Phaser from 'phaser';
import type { PlaceTree } from '@protocol/places';
import type { ErrorReply } from '@protocol/messages';
import { parseIsoMoment } from '@protocol/time';
import { Boot } from './scenes/Boot';
import { Preloader } from './scenes/Preloader';
import { Town, type TownHost } from './scenes/Town';
import { PlaceLabels } from './view/PlaceLabels';
import { connectToTown, forgetToken, isTokenRefused, rememberToken, takeToken, type TownConnection } from './net/townConnection';
import { connectToReplay } from './net/replayConnection';
import { ConnectionHub } from './net/connectionHub';
import { chosenWorld, fetchReplayWorld, fetchTownInfo, fetchTowns, fetchWorlds, liveTownOf } from './net/api';
import { Hud, type ViewControls } from './ui/hud';
import { Inspector } from './ui/inspector';
import { FeedPanel } from './ui/feed';
import { OperatorTools } from './ui/operatorTools';
import { buildHelp } from './ui/help';
import { installShortcuts } from './ui/keyboard';
import { watchInsets } from './ui/layout';
import { askForToken, tokenDialogOpen } from './ui/tokenDialog';
import { isTownsPage, mountTownsLink, showTownsPage } from './ui/towns';
import { ReplayBar } from './ui/replayBar';
import { WorldPicker } from './ui/worldPicker';

declare global {
  interface Window {
    /** Test hooks for the browser tests; read-only views of what is on screen. */
    __smalltown?: {
      ready: boolean;
      scene: string;
      /** Agents with their world position and their position on the page (x, y), and whether that is inside the town's viewport. */
      agents(): Array<{
        id: string;
        name: string;
        x: number;
        y: number;
        worldX: number;
        worldY: number;
        onScreen: boolean;
        action: string;
        emoji: string;
        speech: string;
        walking: boolean;
      }>;
      camera(): {
        mode: string;
        zoom: number;
        fitZoom: number;
        centerX: number;
        centerY: number;
        watched: string[];
        viewport: { x: number; y: number; width: number; height: number };
        map: { width: number; height: number };
      };
      /** Agents' names drawn on the map, with their box on the page. */
      nameLabels(): Array<{ id: string; left: number; top: number; width: number; height: number }>;
      /** Everything drawn for agents (sprites, names, emoji, speech bubbles): each box on the page, and which part it is. */
      agentBoxes(): Array<{ id: string; part: 'sprite' | 'name' | 'emoji' | 'bubble'; left: number; top: number; width: number; height: number }>;
      /** Place names: `visible`, shown at this zoom (not hidden by a bigger place's name); `drawn`, also in the camera's view. */
      placeLabels(): Array<{ text: string; kind: string; visible: boolean; drawn: boolean; left: number; top: number; width: number; height: number }>;
      follow(id: string | null): void;
      inspected(): string | null;
      /** How many inspector replies have been drawn: each refresh adds one. */
      inspectorReplies(): number;
      followed(): string | null;
      /** Live or replay, and the game time shown. */
      view(): { mode: 'live' | 'replay'; gameMs: number; playing: boolean; span: { firstGameMs: number; lastGameMs: number } };
      /** The timeline's markers (game ms and kind). */
      markers(): Array<{ gameMs: number; kind: string }>;
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

/** What the page shows: a running town (and replays of it), or only the replay of a world file. */
interface Opened {
  hub: ConnectionHub;
  places: PlaceTree;
  mapUrl: string;
  /** The world replays open (null: the town this page watches by default). */
  replayWorld: string | null;
  /** On a page that replays a world file: the running town of that world, where "back to live" goes (null: none runs). */
  fileLiveTown: string | null;
}

/** The moment in the address (`?t=2026-02-14T17:00`), null when none; a malformed one is said and ignored. */
function requestedMoment(): number | null {
  const text = new URLSearchParams(location.search).get('t');
  if (text === null) return null;
  const t = parseIsoMoment(text);
  if (t === null) status.textContent = `The address's t=${text} is not a moment (YYYY-MM-DDTHH:MM[:SS]); showing the live town.`;
  return t;
}

/**
 * Whether the world is a file that is no running town (the listing says so), and the towns running now; such a file's
 * page replays it without asking /api/town (a 404) first.
 */
async function fileOnly(world: string | null): Promise<{ fileOnly: boolean; running: string[] }> {
  if (world === null) return { fileOnly: false, running: [] };
  const [listing, towns] = await Promise.all([fetchWorlds().catch(() => null), fetchTowns().catch(() => null)]);
  const running = towns?.towns.map((t) => t.name) ?? [];
  // A town running now (this process's second world, or one held by another process) is joined live.
  if (running.includes(world)) return { fileOnly: false, running };
  return { fileOnly: listing?.worlds.some((w) => w.id === world && !w.live && !w.error) ?? false, running };
}

async function open(at: number | null): Promise<Opened> {
  const requested = chosenWorld();
  try {
    const found = await fileOnly(requested);
    if (found.fileOnly) return await openFile(requested!, at, found.running);
    const info = await fetchTownInfo();
    const live = await join(info.name);
    return { hub: new ConnectionHub(live, live), places: info.places, mapUrl: info.mapUrl, replayWorld: requested, fileLiveTown: null };
  } catch (error) {
    const noTown = new Error(`${error instanceof Error ? error.message : String(error)} (see /towns)`);
    if (requested === null) throw noTown;
    return openFile(requested, at, [], noTown);
  }
}

/**
 * The replay of a world file (a headless run, a backup) on its own page; `running`, the towns running now (its
 * own among them, for "back to live"); `noTown`, the town's message for a name that is neither.
 */
async function openFile(world: string, at: number | null, running: readonly string[], noTown?: Error): Promise<Opened> {
  const file = await fetchReplayWorld(world).catch((reason: unknown) => {
    const why = reason instanceof Error ? reason.message : String(reason);
    // Neither a town nor a file: the town's message. A file that cannot be replayed: its own reason.
    if (noTown && /no such world file|is not a world name/.test(why)) throw noTown;
    throw new Error(`cannot replay ${world}: ${why}`);
  });
  const replay = await connectToReplay({ world, gameMs: at ?? file.span.lastGameMs });
  return { hub: new ConnectionHub(replay, null), places: file.places, mapUrl: file.mapUrl, replayWorld: world, fileLiveTown: liveTownOf(world, running) };
}

/** The DOM parts of the page around the map: the clock bar, the inspector, the tools, the feed, the help, the timeline and the world list. */
interface Panels {
  hud: Hud;
  inspector: Inspector;
  tools: OperatorTools;
  feed: FeedPanel;
  help: HTMLElement;
  replayBar: ReplayBar;
  picker: WorldPicker;
}

/** The Phaser game and its town scene (once it runs). */
interface Game {
  game: Phaser.Game;
  town(): Town;
  townReady(): boolean;
}

async function start(): Promise<void> {
  status.textContent = 'connecting to the town…';
  const at = requestedMoment();
  let opened: Opened;
  try {
    opened = await open(at);
  } catch (error) {
    status.textContent = `Could not join the town: ${error instanceof Error ? error.message : String(error)}. `;
    const retry = Object.assign(document.createElement('button'), { type: 'button', textContent: 'try again', onclick: () => location.reload() });
    status.append(retry);
    return;
  }
  status.textContent = '';
  mountTownsLink();
  const panels = mountPanels(opened);
  if (opened.hub.mode === 'replay') {
    if (opened.hub.state.detail) panels.hud.say(`This world replays with less detail: ${opened.hub.state.detail}.`);
  } else if (at !== null) void panels.replayBar.seek(at);
  const game = startGame(opened, panels);
  bindControls(opened.hub, panels, game);
  installTestHooks(opened.hub, panels, game);
}

/** Builds the panels on the page and wires them to the hub and to each other. */
function mountPanels(opened: Opened): Panels {
  const { hub } = opened;
  const hud = new Hud(hub);
  hub.on('error', (m) => {
    const e = m as ErrorReply;
    hud.say(`${e.type}: ${e.message}`);
  });
  const inspector = new Inspector(hub, document.getElementById('panel')!);
  const tools = new OperatorTools(hub, document.getElementById('tools')!, opened.places);
  const feed = new FeedPanel(hub, document.getElementById('log')!);
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
  const replayBar = new ReplayBar({
    hub,
    root: document.getElementById('timeline')!,
    world: opened.replayWorld,
    fileLiveTown: opened.fileLiveTown,
    say: (text) => hud.say(text),
    onMoved: () => inspector.refresh(),
  });
  const picker = new WorldPicker(() => opened.replayWorld);
  const worlds = Object.assign(document.createElement('button'), {
    type: 'button',
    className: 'timeline-worlds',
    textContent: '📼 worlds',
    title: 'replay another world file (W)',
  });
  worlds.addEventListener('click', () => void picker.open());
  document.getElementById('timeline')!.append(worlds);
  hub.onSwitch((mode) => {
    if (mode === 'replay') tools.close();
    feed.reset(mode);
    inspector.reset();
  });
  return { hud, inspector, tools, feed, help, replayBar, picker };
}

/** Starts Phaser (Boot -> Preloader -> Town) with what the scene needs from the page: the hub, the places, the map, the panels' frame hooks. */
function startGame(opened: Opened, panels: Panels): Game {
  const { hud, inspector, tools, replayBar } = panels;
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
    places: opened.places,
    insets,
    onPick: (id) => {
      inspector.show(id);
      replayBar.setAgent(id);
    },
    onFrame: (now) => {
      hud.update(now);
      inspector.tick();
      tools.tick();
      replayBar.frame(now);
    },
  };
  game.registry.set('connection', opened.hub);
  game.registry.set('host', host);
  game.registry.set('mapUrl', opened.mapUrl);
  return { game, town, townReady };
}

/** The clock bar's view buttons, the find box, closing the inspector, and the keyboard shortcuts. */
function bindControls(hub: ConnectionHub, panels: Panels, { town, townReady }: Game): void {
  const { hud, inspector, tools, help, replayBar, picker } = panels;
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
      // The camera leaves whoever it followed; the inspector stays open on them.
      town().letGo();
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
      // As with "⌂ town": the camera leaves whoever it followed, the inspector stays open on them.
      town().letGo();
      town().view.panBy(dx, dy);
    },
    showWholeTown: view.showWholeTown,
    toggleAutoFollow: () => view.setAutoFollow(!view.autoFollow()),
    // Space plays and pauses a replay; in the live town it is the operator's pause.
    togglePause: () => (hub.mode === 'replay' ? replayBar.togglePlay() : hud.togglePause()),
    stepMarker: (direction) => replayBar.stepMarker(direction),
    backToLive: () => {
      if (hub.mode === 'replay') replayBar.backToLive();
    },
    toggleWorlds: () => (picker.isOpen ? picker.close() : void picker.open()),
    setRate: (i) => hud.setRate(i),
    focusFind: () => hud.focusFind(),
    toggleHelp: () => (help.hidden = !help.hidden),
    toggleTools: () => tools.toggle(),
    closeOverlay: () => {
      if (picker.close()) return true;
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
}

/** A box in world px as the page has it (px from the page's top left). */
function onPage(cam: Phaser.Cameras.Scene2D.Camera, b: { x: number; y: number; width: number; height: number }) {
  return {
    left: cam.x + (b.x - cam.worldView.x) * cam.zoom,
    top: cam.y + (b.y - cam.worldView.y) * cam.zoom,
    width: b.width * cam.zoom,
    height: b.height * cam.zoom,
  };
}

/** window.__smalltown for the browser tests, and `ready` once the town has drawn its agents (then an agent named in the address is followed). */
function installTestHooks(hub: ConnectionHub, { inspector, replayBar }: Panels, { game, town, townReady }: Game): void {
  window.__smalltown = {
    ready: false,
    get scene() {
      return game.scene
        .getScenes(true)
        .map((s) => s.scene.key)
        .join(',');
    },
    agents() {
      const scene = town();
      const cam = scene.cameras.main;
      return [...scene.agents.values()].map((v) => {
        // A sprite outlives its agent's state by a frame when the agent leaves (or is renamed): listed, with no state.
        const a = hub.state.agents.get(v.id) ?? { name: '', action: '', emoji: '', speech: '' };
        const x = cam.x + (v.x - cam.worldView.x) * cam.zoom;
        const y = cam.y + (v.y - cam.worldView.y) * cam.zoom;
        const onScreen = x >= cam.x && x < cam.x + cam.width && y >= cam.y && y < cam.y + cam.height;
        return { id: v.id, name: a.name, worldX: v.x, worldY: v.y, x, y, onScreen, action: a.action, emoji: a.emoji, speech: a.speech, walking: v.isWalking };
      });
    },
    camera() {
      const scene = town();
      const cam = scene.cameras.main;
      const v = scene.view;
      return {
        mode: v.mode,
        zoom: cam.zoom,
        fitZoom: v.fitZoom(),
        centerX: v.centerX(),
        centerY: v.centerY(),
        watched: [...v.watched()],
        viewport: { x: cam.x, y: cam.y, width: cam.width, height: cam.height },
        map: { width: v.mapWidthPx, height: v.mapHeightPx },
      };
    },
    placeLabels() {
      const cam = town().cameras.main;
      const zoom = cam.zoom;
      return town().labels.labels.map((l) => ({
        text: l.text,
        kind: l.kind,
        visible: l.shown,
        drawn: l.object?.visible ?? false,
        ...onPage(cam, PlaceLabels.box(l, zoom)),
      }));
    },
    nameLabels() {
      const cam = town().cameras.main;
      return [...town().agents.values()].flatMap((v) => {
        const b = v.labelBox;
        return b ? [{ id: v.id, ...onPage(cam, b) }] : [];
      });
    },
    agentBoxes() {
      const cam = town().cameras.main;
      return [...town().agents.values()].flatMap((v) => v.drawnBoxes.map((b) => ({ id: v.id, part: b.part, ...onPage(cam, b) })));
    },
    follow: (id) => town().follow(id),
    inspected: () => inspector.shown,
    inspectorReplies: () => inspector.replies,
    followed: () => town().followedId,
    view: () => ({ mode: hub.mode, gameMs: hub.gameNow(), playing: hub.mode === 'replay' && hub.state.replayRate > 0, span: replayBar.timeline.shownSpan }),
    markers: () => replayBar.markerList.map((m) => ({ gameMs: m.gameMs, kind: m.kind })),
  };
  // An agent named in the address is followed once it is on the map.
  const wanted = new URLSearchParams(location.search).get('agent');
  game.events.on('step', () => {
    const hooks = window.__smalltown!;
    if (!hooks.ready && townReady() && town().agents.size > 0) {
      hooks.ready = true;
      if (wanted && town().agents.has(wanted)) town().follow(wanted);
    }
  });
}

if (isTownsPage()) showTownsPage();
else void start();
