// Behind one port: the process a viewer reached relays what belongs to a world held by another process
// to that process, byte for byte. WebSocket connections name their room's process in the path
// Colyseus's SDK builds (`/<processId>/<roomId>`); HTTP requests name their world (`?world=` on /api,
// /api/towns/<world>, /towns/<world>/…). A relayed request is marked, and never relayed twice.
import http, { type IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { matchMaker } from '@colyseus/core';
import { HttpError } from '../api/errors';
import { townRoomOf, type ProcessAddresses } from './cluster';

const RELAYED = 'x-smalltown-relayed';

/** The process named by a room connection's path, when it is another one. */
export function foreignProcessOf(req: IncomingMessage): string | null {
  if (req.headers[RELAYED]) return null;
  const match = /^\/([\w-]+)\/([\w-]+)(?:\?|$)/.exec(req.url ?? '');
  return match && match[1] !== matchMaker.processId ? match[1]! : null;
}

/** Pipes a WebSocket upgrade to the process that holds its room; answers 502 when that process is not known. */
export async function relayUpgrade(addresses: ProcessAddresses, processId: string, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  socket.on('error', () => socket.destroy());
  const target = await addresses.addressOf(processId).catch(() => null);
  if (!target) {
    socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 27\r\n\r\nno such process is running\n');
    return;
  }
  const upstream = net.connect(target.port, target.host);
  upstream.on('error', () => socket.destroy());
  socket.on('close', () => upstream.destroy());
  upstream.on('close', () => socket.destroy());
  upstream.once('connect', () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    lines.push(`${RELAYED}: 1`, '', '');
    upstream.write(lines.join('\r\n'));
    if (head.length > 0) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
}

/** The world an HTTP request is about, when it names one. */
export function worldOfRequest(req: Request): string | null {
  const path = req.path;
  const scoped = /^\/(?:api\/)?towns\/([\w-]+)(?:\/|$)/.exec(path);
  if (scoped) return scoped[1]!;
  if ((path === '/api' || path.startsWith('/api/')) && typeof req.query.world === 'string') return req.query.world;
  return null;
}

/**
 * Express middleware: a request about a world this process does not hold, but another one does, is
 * answered by that one. Everything else goes on here.
 */
export function relayHttp(addresses: ProcessAddresses, holdsLocally: (world: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const world = worldOfRequest(req);
    if (world === null || holdsLocally(world) || req.headers[RELAYED]) return next();
    void (async () => {
      const room = await townRoomOf(world);
      const target = room && room.processId !== matchMaker.processId ? await addresses.addressOf(room.processId) : null;
      if (!target) return next();
      const headers = { ...req.headers, [RELAYED]: '1' };
      const upstream = http.request({ host: target.host, port: target.port, method: req.method, path: req.originalUrl, headers });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => (res.headersSent ? res.destroy() : next(new HttpError(502, `the process holding '${world}' did not answer`))));
      req.pipe(upstream);
    })().catch(next);
  };
}
