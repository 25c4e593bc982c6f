// The composition root: builds every part from a Config and serves the town over HTTP and WebSocket
// on one port. `index.ts` runs it for `npm start`; tests start it in-process with `startTown`.
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import express from 'express';
import { Server, matchMaker } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import type { ViteDevServer } from 'vite';
import { loadConfig, type Config, type ConfigInput } from './config';
import { Town } from './town/Town';
import { createLogger, type Logger } from './town/logger';
import { TownRoom, towns } from './rooms/TownRoom';
import { ReplayRoom, replayContexts } from './rooms/ReplayRoom';
import { replayRouter } from './api/replay';
import type { ReplayContext } from './replay/open';
import { buildMinds } from './town/minds';
import { mountApi } from './api/routes';
import { mountAnalysisApi } from './api/analysis';
import { mountExportApi } from './api/exports';
import { mountMapAssets } from './api/mapAssets';
import { startJobs, type Jobs } from './jobs/jobs';
import { formatGameTime } from './protocol/time';
import type { WallClock } from './core/wallClock';

export interface RunningTown {
  url: string;
  port: number;
  config: Config;
  town: Town;
  operatorToken: string;
  close(): Promise<void>;
}

const CLIENT_DIR = path.resolve('dist/client');

/** For tests and tools: settings from `overrides` over `env` (empty by default, so tests are hermetic). */
export async function startTown(overrides: Partial<ConfigInput> = {}, env: Record<string, string | undefined> = {}, options: StartOptions = {}): Promise<RunningTown> {
  const config = loadConfig(env, overrides);
  return startTownWith(config, createLogger(config.logLevel), options);
}

export interface StartOptions {
  /** Wall time for the room, jobs and records (tests pass a ManualClock). */
  wallClock?: WallClock;
}

export async function startTownWith(config: Config, logger: Logger = createLogger(config.logLevel), options: StartOptions = {}): Promise<RunningTown> {
  const operatorToken = config.operatorToken ?? randomBytes(12).toString('base64url');
  const minds = buildMinds(config, logger);
  const town = await Town.open({ ...config, operatorToken }, { embedder: minds.embedder, createMind: minds.createMind, logger, wallClock: options.wallClock });
  towns.set(config.world, town);
  const replayContext: ReplayContext = {
    dataDir: config.dataDir,
    live: { world: config.world, file: town.db.file, mapFile: config.mapFile, simWorld: town.world, mind: town.mind.label },
    embedder: town.embedder,
    retrieval: { weights: town.runtime.settings.retrievalWeights, decayPerGameHour: town.runtime.settings.decayPerGameHour },
    wallClock: town.wallClock,
  };
  replayContexts.set(config.world, replayContext);

  const app = express();
  const server = http.createServer(app);
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({
      ok: true,
      world: config.world,
      agents: town.sim.agents().length,
      gameTime: formatGameTime(town.clock.gameMs),
      gameMs: town.clock.gameMs,
      paused: town.clock.paused,
      holds: town.holds.list(),
      mind: town.mind.label,
      embedder: minds.embedder.model,
      eventSeq: town.db.events.lastSeq(),
    });
  });
  mountApi(app, town, { operatorToken, mapFile: config.mapFile });
  app.use('/api', replayRouter(replayContext));
  mountMapAssets(app, config.mapFile, (message) => logger.warn(message));
  mountAnalysisApi(app, town, config);
  mountExportApi(app, config);

  let vite: ViteDevServer | null = null;
  if (config.dev) {
    // Dev mode: Vite serves the client from source, with hot reload, inside this same server.
    const { createServer } = await import('vite');
    vite = await createServer({ configFile: 'client/vite.config.ts', server: { middlewareMode: true, hmr: { server } }, appType: 'spa' });
    app.use(vite.middlewares);
  } else if (fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    app.use(express.static(CLIENT_DIR));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text/plain').send('The client is not built. Run `npm start` (which builds it) or `npm run build:client`.');
    });
  }

  const gameServer = new Server({ transport: new WebSocketTransport({ server }), greet: false, gracefullyShutdown: false, logger: quietColyseusLogger(logger) });
  gameServer.define('town', TownRoom, { world: config.world });
  gameServer.define('replay', ReplayRoom, { live: config.world });
  await gameServer.listen(config.port, config.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  await matchMaker.createRoom('town', { world: config.world });

  const jobs: Jobs = startJobs(config, town, logger);
  const url = `http://localhost:${port}`;
  logger.info(`Smalltown '${config.world}' on ${url} — ${town.sim.agents().length} agents, ${town.mind.label} mind, embedder ${minds.embedder.model}, ${town.resumed ? 'resumed' : 'new world'}`);
  logger.info(`operator token: ${operatorToken}  (open ${url}/?token=${operatorToken})`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      jobs.stop();
      await gameServer.gracefullyShutdown(false).catch(() => undefined);
      await vite?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await town.close();
      towns.delete(config.world);
      replayContexts.delete(config.world);
    })());
  return { url, port, config, town, operatorToken, close };
}

/** Colyseus logs every join and leave; route it through our logger at debug level. */
function quietColyseusLogger(logger: Logger): Record<'debug' | 'info' | 'warn' | 'error' | 'log', (...args: unknown[]) => void> {
  const join = (args: unknown[]) => args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
  return {
    debug: (...a) => logger.debug(join(a)),
    log: (...a) => logger.debug(join(a)),
    info: (...a) => logger.debug(join(a)),
    warn: (...a) => logger.warn(join(a)),
    error: (...a) => logger.error(join(a)),
  };
}
