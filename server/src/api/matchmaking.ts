// Colyseus's matchmaking routes (`POST /matchmake/<method>/<room>`) answered from its own request listener,
// before Express: no body limit (a 100 MB body was read whole), any content type (multipart answered 500
// with a stack trace on the console), none of the security headers, and its error codes as HTTP statuses
// (520–526: "a server error" for a client's bad request). This guard runs first on those routes and holds
// them to the API's rules: the security headers, POST with a JSON object of at most
// MATCHMAKE_BODY_LIMIT_BYTES (read here, refused past the limit without reading the rest), and a 4xx for
// every refusal Colyseus makes of a client's request. What passes goes on to Colyseus with the body parsed.
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** Matchmaking options are a few short fields (world, token, moment): 16 KB is generous. */
export const MATCHMAKE_BODY_LIMIT_BYTES = 16 * 1024;

/** Colyseus's matchmaking error codes (shared-types ErrorCode), which it answers as HTTP statuses, as the client's mistakes they are. */
const COLYSEUS_STATUS: Record<number, number> = {
  520: 404, // MATCHMAKE_NO_HANDLER: no such room type
  521: 400, // MATCHMAKE_INVALID_CRITERIA
  522: 404, // MATCHMAKE_INVALID_ROOM_ID: no such room (a reconnect to a room that is gone)
  523: 400, // MATCHMAKE_UNHANDLED: the room refused the join (onAuth, onJoin)
  524: 410, // MATCHMAKE_EXPIRED: the seat reservation is gone
  525: 403, // AUTH_FAILED
  526: 400, // APPLICATION_ERROR
  4217: 400, // INVALID_PAYLOAD
};

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the guard in front of every request listener the server has now (Colyseus's, which wraps Express):
 * call it after `gameServer.listen`. Other paths go through untouched.
 */
export function guardMatchmaking(server: http.Server, headers: RequestHandler): void {
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  const pass: Listener = (req, res) => {
    for (const listener of listeners) listener.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (pathname !== '/matchmake' && !pathname.startsWith('/matchmake/')) return pass(req, res);
    headers(req as never, res as never, () => guarded(req, res, pathname, pass));
  });
}

function guarded(req: IncomingMessage, res: ServerResponse, pathname: string, pass: Listener): void {
  // CORS preflight: Colyseus answers it with the CORS policy (security.ts).
  if (req.method === 'OPTIONS') return pass(req, res);
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST, OPTIONS');
    return refuse(req, res, 405, 'matchmaking takes POST with a JSON body');
  }
  if (!/^\/matchmake\/\w+\/[\w-]+$/.test(pathname)) return refuse(req, res, 404, `nothing at POST ${pathname.slice(0, 200)}`);
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const empty = declared === 0 || (declared === null && req.headers['transfer-encoding'] === undefined);
  if (type !== 'application/json' && !(empty && type === '')) return refuse(req, res, 415, 'matchmaking takes a JSON body (Content-Type: application/json)');
  if (declared !== null && !(declared <= MATCHMAKE_BODY_LIMIT_BYTES)) return refuse(req, res, 413, 'request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > MATCHMAKE_BODY_LIMIT_BYTES) {
      over = true;
      chunks.length = 0;
      refuse(req, res, 413, 'request body too large');
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (over) return;
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return refuse(req, res, 400, 'malformed JSON body');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse(req, res, 400, 'matchmaking options must be a JSON object');
    // Colyseus reads the body it is handed by its content type: JSON, whatever an empty request said.
    (req as IncomingMessage & { body?: unknown }).body = body;
    req.headers['content-type'] = 'application/json';
    clientStatuses(res);
    pass(req, res);
  });
}

/** Colyseus's codes answered as the 4xx they are; a status Node would not know is never sent. */
function clientStatuses(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const mapped = COLYSEUS_STATUS[status] ?? (STATUS_CODES[status] ? status : 400);
    res.statusCode = mapped;
    return writeHead(mapped, ...rest);
  }) as ServerResponse['writeHead'];
}

/** A JSON refusal; a body left unread is not read (the connection closes after the answer). */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  const text = JSON.stringify({ error: message });
  const unread = !req.complete;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(unread ? { connection: 'close' } : {}),
  });
  res.end(text, () => {
    if (unread) req.socket.destroy();
  });
}
