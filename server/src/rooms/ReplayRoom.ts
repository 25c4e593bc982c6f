// One viewer's replay: a private room per viewer (created, never joined by a second client), holding
// a ReplaySession over a world file opened read-only. It answers seek, play, pause and inspect; it
// changes nothing in any world, so spectators may use it without the operator token.
import { ErrorCode, Room, ServerError, type Client } from '@colyseus/core';
import { TownState } from '../protocol/state';
import { InspectMessage } from '../protocol/messages';
import type { InspectReply } from '../protocol/inspection';
import { PauseMessage, PlayMessage, SeekMessage } from '../protocol/replay';
import { parseIsoMinute } from '../protocol/time';
import type { ReplaySession } from '../replay/ReplaySession';
import { openReplay, type ReplayContext } from '../replay/open';
import { syncAgentState, townNews } from './stateSync';
import { MessageGuard, refuse } from './guard';
import { clientOf, madeByServer, replayJoinSeconds, replayRegistry } from './admission';

/** Set by the app: where world files are, and the live towns, by name (the first is the default). */
export const replayContexts = new Map<string, ReplayContext>();

export interface ReplayOptions {
  /** The live world's name (the app's key into replayContexts); omitted: `world` when it is live here, else the default world. */
  live?: string;
  /** A world id from /api/worlds; omitted for the live world. */
  world?: string;
  /** Where to start: game ms, or "YYYY-MM-DDTHH:MM". */
  t?: number | string;
}

const TICK_MS = 100;

/**
 * What the viewer asked for cannot be replayed: answered with the reason, and not logged as the server's
 * error (Colyseus logs other errors of onCreate with their stack), as HTTP answers a 4xx.
 */
function refused(message: string): ServerError {
  return new ServerError(ErrorCode.MATCHMAKE_INVALID_CRITERIA, message);
}

export class ReplayRoom extends Room<{ state: TownState }> {
  private session!: ReplaySession;
  private guard!: MessageGuard;
  private context!: ReplayContext;
  private lastTickMs = 0;
  private close: () => void = () => undefined;
  override maxClients = 1;

  override async onCreate(options: ReplayOptions): Promise<void> {
    // Only the server makes replay rooms (rooms/admission.ts: one per viewer, on its join).
    if (!madeByServer(options)) throw refused('replay rooms are made by the server: join("replay", options)');
    // A world file that is itself a live town here replays over that town's context (its map, its mind).
    const own = typeof options.world === 'string' && replayContexts.has(options.world) ? options.world : undefined;
    const live = options.live ?? own ?? replayContexts.keys().next().value;
    const context = live === undefined ? undefined : replayContexts.get(live);
    if (!context) throw refused(`no town '${live}' is running`);
    this.context = context;
    // Errors here (a broken, foreign or missing file) reach the viewer as the reason the room failed.
    let opened: ReturnType<typeof openReplay>;
    try {
      opened = openReplay(context, options.world ?? null);
    } catch (error) {
      throw refused(error instanceof Error ? error.message : String(error));
    }
    this.session = opened.session;
    this.close = opened.close;
    this.seatReservationTimeout = replayJoinSeconds();
    replayRegistry.made(this.roomId, clientOf(options));
    // A viewer that never comes: the room goes once its seat reservation has expired.
    this.clock.setTimeout(
      () => {
        if (this.clients.length === 0) void this.disconnect();
      },
      (this.seatReservationTimeout + 1) * 1000,
    );
    this.guard = new MessageGuard(context.wallClock);
    const state = new TownState();
    state.mode = 'replay';
    state.world = opened.map.places.world;
    state.mapWidth = opened.map.widthTiles;
    state.mind = opened.mind;
    state.replayWorld = options.world ?? '';
    state.detail = opened.detail;
    state.paused = true;
    this.setState(state);
    const start = typeof options.t === 'string' ? parseIsoMinute(options.t) : typeof options.t === 'number' ? options.t : null;
    this.session.seek(start ?? this.session.currentSpan().lastGameMs);
    this.syncAll();
    this.lastTickMs = context.wallClock.now();
    this.setSimulationInterval(() => this.tick(), TICK_MS);

    this.onMessage('seek', (client, raw) => this.guard.handle(client, 'seek', SeekMessage, raw, false, (m) => this.seek(client, m.t)));
    this.onMessage('play', (client, raw) =>
      this.guard.handle(client, 'play', PlayMessage, raw, false, (m) => {
        this.session.rate = m.rate;
        this.syncClock();
      }),
    );
    this.onMessage('pause', (client, raw) =>
      this.guard.handle(client, 'pause', PauseMessage, raw, false, () => {
        this.session.rate = 0;
        this.syncClock();
      }),
    );
    // The feed and conversation lines up to the moment: asked for once the viewer listens (and sent after each seek).
    this.onMessage('history', (client, raw) =>
      this.guard.handle(client, 'history', PauseMessage, raw ?? {}, false, () => client.send('history', this.session.history())),
    );
    this.onMessage('inspect', (client, raw) =>
      this.guard.handle(client, 'inspect', InspectMessage, raw, false, async (m) => {
        const reply: InspectReply = { requestId: m.requestId, ...(await this.session.inspect(m.agentId)) };
        client.send('inspect', reply);
      }),
    );
    this.onMessage('*', (client, type) => refuse(client, String(type), `unknown message type '${String(type)}' in a replay`));
  }

  override onJoin(client: Client): void {
    replayRegistry.joined(this.roomId);
    client.send('welcome', { role: 'spectator', world: this.state.world });
  }

  override onLeave(client: Client): void {
    this.guard.forget(client);
  }

  override onDispose(): void {
    replayRegistry.disposed(this.roomId);
    this.close();
  }

  private seek(client: Client, t: number): void {
    this.session.seek(t);
    this.syncAll();
    client.send('history', this.session.history());
  }

  private tick(): void {
    const now = this.context.wallClock.now();
    const delta = now - this.lastTickMs;
    this.lastTickMs = now;
    const { passed } = this.session.advance(delta);
    const news = townNews(passed, this.session.nameOf);
    if (news) this.broadcast('news', news);
    if (passed.length > 0 || this.session.rate > 0) this.syncAll();
    else this.syncClock();
  }

  private syncAll(): void {
    const view = this.session.view();
    const present = new Set<string>();
    for (const a of view.agents()) {
      present.add(a.spec.id);
      syncAgentState(this.state, view, a.spec.id);
    }
    for (const id of [...this.state.agents.keys()]) if (!present.has(id)) this.state.agents.delete(id);
    this.syncClock();
  }

  private syncClock(): void {
    const span = this.session.currentSpan();
    this.state.gameMs = this.session.gameMs;
    this.state.rate = this.session.rate || 60;
    this.state.replayRate = this.session.rate;
    this.state.paused = this.session.rate === 0;
    this.state.spanStartGameMs = span.firstGameMs;
    this.state.spanEndGameMs = span.lastGameMs;
  }
}
