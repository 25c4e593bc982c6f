// The composition root: builds every part from a Config and serves the towns over HTTP and WebSocket
// on one port. `index.ts` runs it for `npm start`; tests start it in-process with `startTown`.
import http, { type IncomingMessage } from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import express from 'express';
import { Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import type { ViteDevServer } from 'vite';
import { checkSettingsOnDisk, loadConfig, redactUrl, type Config, type ConfigInput } from './config';
import { CLOSE_GRACE_MS, type Town } from './town/Town';
import { createLogger, type Logger } from './town/logger';
import { TownRoom } from './rooms/TownRoom';
import { ReplayRoom, replayContexts } from './rooms/ReplayRoom';
import { enforceRoomAdmission } from './rooms/admission';
import { replayRouter, serveRecordedMaps } from './api/replay';
import { buildMinds } from './town/minds';
import { townsRouter } from './api/towns';
import { serveWorldMaps } from './api/mapFiles';
import { mountAnalysisApi } from './api/analysis';
import { mountExportApi } from './api/exports';
import { mountMapAssets } from './api/mapAssets';
import { errorHandler, hidePathsInMatchmakingErrors, HttpError, notFound } from './api/errors';
import { applyCorsPolicy, securityHeaders } from './api/security';
import { guardMatchmaking } from './api/matchmaking';
import { keptOperatorToken } from './core/operatorToken';
import { setOperatorTokenThrottle, TokenThrottle } from './core/tokenThrottle';
import { displayPath } from './core/projectRoot';
import { clientPage } from './api/clientPages';
import { formatGameTime } from './protocol/time';
import { INVALID_TOKEN_MESSAGE } from './protocol/messages';
import type { WallClock } from './core/wallClock';
import { TownHost } from './host/TownHost';
import type { SqliteMemoryStore } from './store/SqliteMemoryStore';
import { connectRedis, ProcessAddresses, selectProcessForRoom } from './host/cluster';
import { foreignProcessOf, relayHttp, relayUpgrade } from './host/relay';

/**
 * The memory stream's column cache: bytes (and MB) held and its cap, agents cached, distinct vectors in its pool,
 * loads, evictions and vectors quantised so far, and the newest rows held for `recent` (all agents).
 */
function memoryCacheOf(c: ReturnType<SqliteMemoryStore['columnCache']>) {
  const { bytes, capBytes, agents, vectors, recentRows, stats } = c;
  return { mb: Math.round(bytes / 1048576), bytes, capMb: Math.round(capBytes / 1048576), agents: agents.length, vectors, recentRows, ...stats };
}

/** The process's memory, MB: resident, V8 heap used and reserved, and memory outside the heap (buffers, WebAssembly). */
function processMemoryMb(): { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number } {
  const m = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  return { rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) };
}

export interface RunningTown {
  url: string;
  port: number;
  config: Config;
  /** The default world's town (the first of WORLDS). */
  town: Town;
  /** Every world this process hosts. */
  host: TownHost;
  operatorToken: string;
  close(): Promise<void>;
}

const CLIENT_DIR = path.resolve('dist/client');
/** How long an idle kept-alive HTTP connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;

/** For tests and tools: settings from `overrides` over `env` (empty by default, so tests are hermetic). */
export async function startTown(
  overrides: Partial<ConfigInput> = {},
  env: Record<string, string | undefined> = {},
  options: StartOptions = {},
): Promise<RunningTown> {
  const config = loadConfig(env, overrides);
  return startTownWith(config, options.logger ?? createLogger(config.logLevel), options);
}

export interface StartOptions {
  /** Wall time for the room, jobs and records (tests pass a ManualClock). */
  wallClock?: WallClock;
  /** For startTown: where the log goes (tests capture it). */
  logger?: Logger;
}

export async function startTownWith(config: Config, logger: Logger = createLogger(config.logLevel), options: StartOptions = {}): Promise<RunningTown> {
  // Files and folders first: nothing is written (no data folder, no world file) before every setting passes.
  checkSettingsOnDisk(config);
  const kept = config.operatorToken === undefined ? keptOperatorToken(config.dataDir, config.rotateOperatorToken) : null;
  const operatorToken = config.operatorToken ?? kept!.token;
  setOperatorTokenThrottle(new TokenThrottle(Date.now, (address) => logger.warn(`too many wrong operator tokens from ${address}: held back for a minute`)));
  const minds = await buildMinds(config, logger);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const addresses = redis ? new ProcessAddresses(redis.presence) : null;
  const host = new TownHost(config, { logger, minds, operatorToken, wallClock: options.wallClock });
  applyCorsPolicy(config.corsOrigins);
  hidePathsInMatchmakingErrors();

  const app = express();
  const server = http.createServer(app);
  // Node closes an idle kept-alive socket after 5 s; a client reusing it at that moment gets ECONNRESET (a browser test
  // did, typing a window at human speed between two requests). Clients drop idle sockets well before a minute.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  app.disable('x-powered-by');
  const headers = securityHeaders({ dev: config.dev });
  app.use(headers);
  if (addresses) app.use(relayHttp(addresses, (world) => host.has(world)));
  app.get('/healthz', (_req, res) => {
    const town = host.get(host.defaultWorld)?.town;
    if (!town) return res.status(503).json({ ok: false, world: host.defaultWorld, error: 'starting' });
    res.json({
      ok: true,
      world: config.world,
      worlds: host.names(),
      agents: town.sim.agents().length,
      gameTime: formatGameTime(town.shownGameMs),
      gameMs: town.shownGameMs,
      paused: town.clock.paused,
      holds: town.holds.list(),
      mind: town.mind.label,
      node: process.version,
      llmResponseFormat: town.stack?.responseFormat?.() ?? null,
      embedder: minds.embedder.model,
      eventSeq: town.db.events.lastSeq(),
      // A full disk or an I/O error: the town waits (holds has 'storage') and says why here.
      storage: town.loop.storageProblem ?? 'ok',
      memory: processMemoryMb(),
      memoryCache: memoryCacheOf(town.db.memories.columnCache()),
      ...(town.stack?.endpoints ? { llmEndpoints: town.stack.endpoints() } : {}),
      ...(town.stack?.embedded ? { llmModel: town.stack.embedded() } : {}),
    });
  });
  app.use('/api', townsRouter(host, { operatorToken }));
  // One town's views, picked by ?world= (default: the first world).
  app.use('/api', (req, res, next) => {
    const hosted = host.get(typeof req.query.world === 'string' ? req.query.world : host.defaultWorld);
    if (hosted) hosted.api(req, res, next);
    else next();
  });
  // Replay's listing of the world files and their timelines, over the default world's context.
  let replayApi: express.Router | null = null;
  app.use('/api', (req, res, next) => {
    const context = replayContexts.get(host.defaultWorld);
    if (!context) return next();
    replayApi ??= replayRouter(context);
    replayApi(req, res, next);
  });
  // Analysis and exports read world files (any of them, by ?world=); built once the default world runs.
  let analysisApi: express.Router | null = null;
  app.use((req, res, next) => {
    const town = host.get(host.defaultWorld)?.town;
    if (!town) return next();
    if (!analysisApi) {
      analysisApi = express.Router();
      mountAnalysisApi(analysisApi, town, config);
      mountExportApi(analysisApi, config);
    }
    analysisApi(req, res, next);
  });
  app.use('/api', (req, _res, next) => next(typeof req.query.world === 'string' ? new HttpError(404, `no town '${req.query.world}' is running`) : undefined));
  mountMapAssets(app, config.mapFile, (message) => logger.warn(message));
  app.get('/personas', clientPage('personas.html', config.dev));
  app.get(
    '/towns/:world/map/*file',
    serveWorldMaps((world) => host.get(world)?.map ?? null),
  );
  // The maps recorded worlds were made on, for replaying a world file that is no running town.
  let recordedMaps: express.RequestHandler | null = null;
  app.get('/replays/:world/map/*file', (req, res, next) => {
    const context = replayContexts.get(host.defaultWorld);
    if (!context) return next();
    recordedMaps ??= serveRecordedMaps(context);
    recordedMaps(req, res, next);
  });

  let vite: ViteDevServer | null = null;
  if (config.dev) {
    // Dev mode: Vite serves the client from source, with hot reload, inside this same server.
    const { createServer } = await import('vite');
    vite = await createServer({ configFile: 'client/vite.config.ts', server: { middlewareMode: true, hmr: { server } }, appType: 'spa' });
    app.use(vite.middlewares);
  } else if (fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    app.use(express.static(CLIENT_DIR));
    // The start page is the same page (client/src/ui/towns.ts draws it).
    app.get('/towns', (_req, res) => res.sendFile(path.join(CLIENT_DIR, 'index.html')));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The client is not built. Run `npm start` (which builds it) or `npm run build:client`.');
    });
  }
  app.use(notFound);
  app.use(errorHandler(logger));

  // The transport leaves alone what is not its own: Vite's hot-reload socket, and rooms another process holds.
  const transport = new WebSocketTransport({ noServer: true });
  transport.attachToServer(server, { filter: (req) => !isViteHmr(req) && !(addresses && foreignProcessOf(req)) });
  if (addresses) {
    server.on('upgrade', (req, socket, head) => {
      const processId = isViteHmr(req) ? null : foreignProcessOf(req);
      if (processId) void relayUpgrade(addresses, processId, req, socket, head);
    });
  }
  const gameServer = new Server({
    transport,
    greet: false,
    gracefullyShutdown: false,
    logger: quietColyseusLogger(logger),
    ...(redis ? { presence: redis.presence, driver: redis.driver, selectProcessIdToCreateRoom: selectProcessForRoom } : {}),
  });
  gameServer.define('town', TownRoom).filterBy(['world']);
  gameServer.define('replay', ReplayRoom);
  await gameServer.listen(config.port, config.host);
  const { replayRoomsPerClient, replayRoomsMax, replayJoinSeconds } = config;
  enforceRoomAdmission(server, { replayRoomsPerClient, replayRoomsMax, replayJoinSeconds }, operatorToken);
  // Last, so it runs first: /matchmake/* held to the API's limits and headers (api/matchmaking.ts).
  guardMatchmaking(server, headers);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      host.stopJobs();
      await addresses?.unregister().catch(() => undefined);
      await gameServer.gracefullyShutdown(false).catch(() => undefined);
      await vite?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Each town stops its own LLM calls after its grace; the embedder, shared by all, is stopped after the same grace.
      const stopEmbedder = setTimeout(() => minds.embedder.close?.(), CLOSE_GRACE_MS);
      await host.closeAll();
      clearTimeout(stopEmbedder);
    })());
  try {
    await addresses?.register(config.advertiseAddress ?? `${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`);
    for (const world of config.worlds) await host.startWorld(world);
  } catch (error) {
    await close();
    throw error;
  }
  const town = host.get(host.defaultWorld)!.town;
  const worlds = config.worlds.map((w) => `'${w.name}'`).join(', ');
  const shared = redis ? `, sharing matchmaking through ${redactUrl(config.redisUrl!)}` : '';
  logger.info(
    `Smalltown on ${url} — ${config.worlds.length === 1 ? 'world' : 'worlds'} ${worlds}, embedder ${minds.embedder.model}${shared}, Node ${process.version}`,
  );
  // A token the user chose is a secret of theirs: never in the log. One the server keeps is shown, with where it is kept.
  if (kept) {
    const how = `${kept.made ? 'made now, ' : ''}kept in ${displayPath(kept.file)}; ROTATE_OPERATOR_TOKEN=1 makes a new one`;
    logger.info(`operator token: ${operatorToken}  (open ${url}/?token=${operatorToken}; ${how})`);
  } else logger.info('operator token: the one set in OPERATOR_TOKEN');
  return { url, port, config, town, host, operatorToken, close };
}

/** Vite's hot-reload socket, on the same server in dev mode. */
function isViteHmr(req: IncomingMessage): boolean {
  return (req.headers['sec-websocket-protocol'] ?? '').includes('vite-hmr');
}

/** What Colyseus logs as an error when a client sends a frame it cannot read: the client's doing, not the server's. */
const BAD_FRAME = new RegExp(
  [
    'Max payload size exceeded',
    'end of buffer not reached',
    'Invalid WebSocket frame',
    'invalid (opcode|UTF-8|status code)',
    'RSV[123] must be clear',
    'MASK must be set',
    'MessagePack',
    'RoomMessages\\.mjs',
  ].join('|'),
  'i',
);
/** At most one warn line about spectators' bad frames in this long (with how many were not logged). */
export const BAD_FRAME_LOG_EVERY_MS = 10_000;

/**
 * Colyseus logs every join and leave; route it through our logger at debug level. A client's bad frames
 * (anyone who can reach the port can send them) are warnings, one per BAD_FRAME_LOG_EVERY_MS at most.
 */
export function quietColyseusLogger(
  logger: Logger,
  nowMs: () => number = Date.now,
): Record<'debug' | 'info' | 'warn' | 'error' | 'log', (...args: unknown[]) => void> {
  const join = (args: unknown[]) => args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
  let lastBadFrameMs = -Infinity;
  let unlogged = 0;
  const badFrame = (text: string) => {
    const now = nowMs();
    if (now - lastBadFrameMs < BAD_FRAME_LOG_EVERY_MS) return void unlogged++;
    const more = unlogged > 0 ? ` (and ${unlogged} more since the last such line)` : '';
    lastBadFrameMs = now;
    unlogged = 0;
    logger.warn(`a client sent a frame the server could not read: ${text.split('\n')[0]!.slice(0, 200)}${more}`);
  };
  return {
    debug: (...a) => logger.debug(join(a)),
    log: (...a) => logger.debug(join(a)),
    info: (...a) => logger.debug(join(a)),
    warn: (...a) => (BAD_FRAME.test(join(a)) ? badFrame(join(a)) : logger.warn(join(a))),
    // A wrong operator token is the client's mistake, answered with a message; not a server error.
    error: (...a) => {
      const text = join(a);
      const refusal = text.includes(INVALID_TOKEN_MESSAGE) || text.includes('too many wrong operator tokens');
      if (refusal) logger.warn(`refused a client: ${text.split('\n')[0]!.slice(0, 200)}`);
      else if (BAD_FRAME.test(text)) badFrame(text);
      else logger.error(text);
    },
  };
}
