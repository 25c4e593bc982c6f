// The HTTP side of the server: an Express app on a Node server, with the security headers, the relay to other
// processes (with REDIS_URL), /healthz, the towns' APIs (one town's by ?world=, replay, analysis and exports), the map
// files, and the client (Vite from source in dev mode, else the built files). The WebSocket side is gameServer.ts.
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import express from 'express';
import type { ViteDevServer } from 'vite';
import type { Config } from '../config';
import type { Logger } from '../town/logger';
import type { Minds } from '../town/minds';
import { replayContexts } from '../rooms/ReplayRoom';
import { replayRouter, serveRecordedMaps } from '../api/replay';
import { townsRouter } from '../api/towns';
import { serveWorldMaps } from '../api/mapFiles';
import { mountAnalysisApi } from '../api/analysis';
import { mountExportApi } from '../api/exports';
import { mountMapAssets } from '../api/mapAssets';
import { errorHandler, HttpError, notFound } from '../api/errors';
import { securityHeaders } from '../api/security';
import { clientPage } from '../api/clientPages';
import { formatGameTime } from '../protocol/time';
import type { SqliteMemoryStore } from '../store/SqliteMemoryStore';
import type { TownHost } from './TownHost';
import type { ProcessAddresses } from './cluster';
import { relayHttp } from './relay';

const CLIENT_DIR = path.resolve('dist/client');
/** How long an idle kept-alive HTTP connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;

export interface HttpAppParts {
  config: Config;
  host: TownHost;
  minds: Minds;
  operatorToken: string;
  /** Where the other processes sharing the listing are (REDIS_URL), or null for a single process. */
  addresses: ProcessAddresses | null;
  logger: Logger;
}

export interface HttpApp {
  app: express.Express;
  server: http.Server;
  /** The security headers, for the matchmaking routes the game server answers (api/matchmaking.ts). */
  headers: express.RequestHandler;
  /** Vite in dev mode (closed at shutdown). */
  vite: ViteDevServer | null;
}

export async function createHttpApp(parts: HttpAppParts): Promise<HttpApp> {
  const { config, host, addresses, logger } = parts;
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
  app.get('/healthz', healthz(parts));
  mountTownApis(app, parts);
  mountMapAssets(app, config.mapFile, (message) => logger.warn(message));
  app.get('/personas', clientPage('personas.html', config.dev));
  mountMapFiles(app, host);
  const vite = await serveClient(app, server, config);
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, server, headers, vite };
}

/** /healthz: the default world's state, the process's memory, and the minds'. */
function healthz({ config, host, minds }: HttpAppParts): express.RequestHandler {
  return (_req, res) => {
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
  };
}

/** The operator's towns API, one town's views by ?world=, replay's listing, analysis and exports. */
function mountTownApis(app: express.Express, { config, host, operatorToken }: HttpAppParts): void {
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
}

/** The map files of running towns, and of the maps recorded worlds were made on. */
function mountMapFiles(app: express.Express, host: TownHost): void {
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
}

/** The client: from source through Vite in dev mode, else the built files, else a page saying how to build them. */
async function serveClient(app: express.Express, server: http.Server, config: Config): Promise<ViteDevServer | null> {
  if (config.dev) {
    // Dev mode: Vite serves the client from source, with hot reload, inside this same server.
    const { createServer } = await import('vite');
    const vite = await createServer({ configFile: 'client/vite.config.ts', server: { middlewareMode: true, hmr: { server } }, appType: 'spa' });
    app.use(vite.middlewares);
    return vite;
  }
  if (fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    app.use(express.static(CLIENT_DIR));
    // The start page is the same page (client/src/ui/towns.ts draws it).
    app.get('/towns', (_req, res) => res.sendFile(path.join(CLIENT_DIR, 'index.html')));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The client is not built. Run `npm start` (which builds it) or `npm run build:client`.');
    });
  }
  return null;
}

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
