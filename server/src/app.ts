// The composition root: builds every part from a Config and serves the towns over HTTP and WebSocket
// on one port. `index.ts` runs it for `npm start`; tests start it in-process with `startTown`. The HTTP app is
// host/httpApp.ts, the game server host/gameServer.ts; this file checks the settings, builds the minds and the host,
// starts both, and shuts them down in order.
import type { Server } from '@colyseus/core';
import { checkSettingsOnDisk, loadConfig, redactUrl, type Config, type ConfigInput } from './config';
import { CLOSE_GRACE_MS, type Town } from './town/Town';
import { createLogger, type Logger } from './town/logger';
import { buildMinds, type Minds } from './town/minds';
import { applyCorsPolicy } from './api/security';
import { hidePathsInMatchmakingErrors } from './api/errors';
import { keptOperatorToken } from './core/operatorToken';
import { setOperatorTokenThrottle, TokenThrottle } from './core/tokenThrottle';
import { displayPath } from './core/projectRoot';
import type { WallClock } from './core/wallClock';
import { TownHost } from './host/TownHost';
import { connectRedis, ProcessAddresses } from './host/cluster';
import { createHttpApp, type HttpApp } from './host/httpApp';
import { startGameServer } from './host/gameServer';

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

  const http = await createHttpApp({ config, host, minds, operatorToken, addresses, logger });
  const { server } = http;
  const gameServer = await startGameServer({ config, server, headers: http.headers, redis, addresses, operatorToken, logger });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;

  const close = shutdownOf({ host, addresses, gameServer, http, minds });
  try {
    await addresses?.register(config.advertiseAddress ?? `${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`);
    for (const world of config.worlds) await host.startWorld(world);
  } catch (error) {
    await close();
    throw error;
  }
  const town = host.get(host.defaultWorld)!.town;
  logStarted(logger, { config, url, minds, shared: redis !== null, kept, operatorToken });
  return { url, port, config, town, host, operatorToken, close };
}

/**
 * Stops the server, once however often it is called: jobs first, this process out of the shared listing, the rooms,
 * Vite, the HTTP server, then every town (each stops its own LLM calls after its grace, and the shared embedder after
 * the same grace).
 */
function shutdownOf(parts: { host: TownHost; addresses: ProcessAddresses | null; gameServer: Server; http: HttpApp; minds: Minds }): () => Promise<void> {
  const { host, addresses, gameServer, http, minds } = parts;
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      host.stopJobs();
      await addresses?.unregister().catch(() => undefined);
      await gameServer.gracefullyShutdown(false).catch(() => undefined);
      await http.vite?.close();
      await new Promise<void>((resolve) => http.server.close(() => resolve()));
      const stopEmbedder = setTimeout(() => minds.embedder.close?.(), CLOSE_GRACE_MS);
      await host.closeAll();
      clearTimeout(stopEmbedder);
    })());
}

/** The start-up line: where, which worlds, the embedder; and the operator token when the server keeps it. */
function logStarted(
  logger: Logger,
  o: { config: Config; url: string; minds: Minds; shared: boolean; kept: ReturnType<typeof keptOperatorToken> | null; operatorToken: string },
): void {
  const { config, url, minds, kept, operatorToken } = o;
  const worlds = config.worlds.map((w) => `'${w.name}'`).join(', ');
  const shared = o.shared ? `, sharing matchmaking through ${redactUrl(config.redisUrl!)}` : '';
  logger.info(
    `Smalltown on ${url} — ${config.worlds.length === 1 ? 'world' : 'worlds'} ${worlds}, embedder ${minds.embedder.model}${shared}, Node ${process.version}`,
  );
  // A token the user chose is a secret of theirs: never in the log. One the server keeps is shown, with where it is kept.
  if (kept) {
    const how = `${kept.made ? 'made now, ' : ''}kept in ${displayPath(kept.file)}; ROTATE_OPERATOR_TOKEN=1 makes a new one`;
    logger.info(`operator token: ${operatorToken}  (open ${url}/?token=${operatorToken}; ${how})`);
  } else logger.info('operator token: the one set in OPERATOR_TOKEN');
}
