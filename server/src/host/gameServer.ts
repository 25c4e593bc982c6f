// The WebSocket side of the server: Colyseus on the HTTP server's port, with the `town` and `replay` rooms, the
// Redis presence and driver with REDIS_URL (and the relay of other processes' rooms), the room admission limits, and
// the matchmaking routes held to the API's headers. Colyseus's own log goes through ours, quietly.
import type http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type express from 'express';
import { Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import type { Config } from '../config';
import type { Logger } from '../town/logger';
import { TownRoom } from '../rooms/TownRoom';
import { ReplayRoom } from '../rooms/ReplayRoom';
import { enforceRoomAdmission } from '../rooms/admission';
import { guardMatchmaking } from '../api/matchmaking';
import { INVALID_TOKEN_MESSAGE } from '../protocol/messages';
import { selectProcessForRoom, type ProcessAddresses, type RedisServices } from './cluster';
import { foreignProcessOf, relayUpgrade } from './relay';

export interface GameServerParts {
  config: Config;
  /** The HTTP server whose port it shares. */
  server: http.Server;
  /** The HTTP app's security headers (for /matchmake/*). */
  headers: express.RequestHandler;
  redis: RedisServices | null;
  addresses: ProcessAddresses | null;
  operatorToken: string;
  logger: Logger;
}

/** Colyseus on the server's port, listening once this resolves. */
export async function startGameServer(parts: GameServerParts): Promise<Server> {
  const { config, server, headers, redis, addresses, operatorToken, logger } = parts;
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
  return gameServer;
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
