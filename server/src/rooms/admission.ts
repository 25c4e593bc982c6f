// Who may make rooms: only the server. Clients may join the town room the server made for a world, and
// ask for a replay, which the server makes for that viewer alone (within a cap per client address and
// one overall) and which is disposed when its viewer leaves or never comes. Every other matchmaking
// call (create, joinOrCreate, joinById of a replay) is refused with the reason.
import { createHmac, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { matchMaker, ServerError } from '@colyseus/core';
import { equalSecrets } from '../core/secrets';

/** The header the server sets on every request to the peer's socket address (a client's own value is replaced). */
export const PEER_HEADER = 'x-smalltown-peer';

/** The option key whose value (derived from the operator token) marks a room as made by the server. */
const MADE_BY_SERVER = '__smalltownServer';
let SECRET = randomBytes(16).toString('hex');
/** Every mark this process's servers use (tests run several servers, and so several tokens, in one process). */
const SECRETS = new Set([SECRET]);

export interface AdmissionLimits {
  /** Replay rooms one client address may hold at once (one shown, one opening during a switch). */
  replayRoomsPerClient: number;
  /** Replay rooms on this process at once. */
  replayRoomsMax: number;
  /** Seconds a viewer has to join the replay room made for it before the room goes. */
  replayJoinSeconds: number;
}

interface ReplayHolding {
  client: string;
  joined: boolean;
}

/** Replay rooms by room id: whose they are and whether their viewer came. */
const replayRooms = new Map<string, ReplayHolding>();
let limits: AdmissionLimits = { replayRoomsPerClient: 4, replayRoomsMax: 64, replayJoinSeconds: 15 };
const POLICY = Symbol('smalltown.admission');

/** Options for matchMaker.createRoom from server code: the room's onCreate accepts only these. */
export function serverMade<T extends object>(options: T, client = 'server'): T {
  return { ...options, [MADE_BY_SERVER]: SECRET, __smalltownClient: client };
}

/** In a room's onCreate: whether the server made it (else a client asked for it through some other path). */
export function madeByServer(options: unknown): boolean {
  const mark = (options as Record<string, unknown> | null)?.[MADE_BY_SERVER];
  if (typeof mark !== 'string') return false;
  let ok = false;
  for (const secret of SECRETS) ok = equalSecrets(mark, secret) || ok;
  return ok;
}

/** The client address a server-made replay room was made for. */
export function clientOf(options: unknown): string {
  const c = (options as Record<string, unknown> | null)?.__smalltownClient;
  return typeof c === 'string' ? c : 'server';
}

/** Seconds a viewer has to join its replay room. */
export function replayJoinSeconds(): number {
  return limits.replayJoinSeconds;
}

/** Replay rooms held now: in all, and by one client address. */
export function replayRoomCount(client?: string): number {
  if (client === undefined) return replayRooms.size;
  let n = 0;
  for (const h of replayRooms.values()) if (h.client === client) n++;
  return n;
}

/** ReplayRoom's calls: made, joined, disposed. */
export const replayRegistry = {
  made(roomId: string, client: string): void {
    replayRooms.set(roomId, { client, joined: false });
  },
  joined(roomId: string): void {
    const h = replayRooms.get(roomId);
    if (h) h.joined = true;
  },
  disposed(roomId: string): void {
    replayRooms.delete(roomId);
  },
};

/** A refusal; Colyseus answers the matchmaking route with the code as its HTTP status (403 by default, a client's request). */
function refused(message: string, status = 403): ServerError {
  return new ServerError(status, message);
}

/**
 * Installs the policy on Colyseus's matchmaking controller (once per process; `next` limits replace
 * the last ones) and stamps every HTTP request with its peer address, which a client cannot forge.
 */
export function enforceRoomAdmission(server: http.Server, next: AdmissionLimits, operatorToken: string): void {
  limits = next;
  // Derived from the operator token, which every process sharing a Redis has: a room one process asks
  // another to make (a replay where its live world is) carries a mark the other accepts.
  SECRET = createHmac('sha256', operatorToken).update('smalltown: rooms made by the server').digest('hex');
  SECRETS.add(SECRET);
  // Prepended after Colyseus bound its routes, so it runs first on every request.
  const stamp = (req: http.IncomingMessage) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? 'unknown';
  };
  server.prependListener('request', stamp);
  // And the WebSocket upgrade, where a room's onAuth reads it (the token throttle).
  server.prependListener('upgrade', stamp);
  const controller = matchMaker.controller as typeof matchMaker.controller & { [POLICY]?: true };
  if (controller[POLICY]) return;
  controller[POLICY] = true;
  const invoke = controller.invokeMethod.bind(controller);
  controller.invokeMethod = async (method, roomName, clientOptions = {}, authContext) => {
    const options = stripServerKeys(clientOptions);
    if (method === 'reconnect') return invoke(method, roomName, options, authContext);
    if (roomName === 'town') {
      if (method === 'join' || method === 'joinById') return invoke(method, roomName, options, authContext);
      throw refused(`'${method}' of a town room is not allowed: the server makes each town's room; join it (join('town', { world }))`);
    }
    if (roomName === 'replay') {
      if (method !== 'join') throw refused(`'${method}' of a replay room is not allowed: join('replay', options) and the server makes your own`);
      const peer = authContext?.headers?.get(PEER_HEADER) ?? 'unknown';
      for (const h of replayRooms.values()) {
        if (h.client === peer && !h.joined) throw refused('you already have a replay room waiting for you to join; join it or wait for it to expire', 429);
      }
      if (replayRoomCount(peer) >= limits.replayRoomsPerClient)
        throw refused(`too many replay rooms from one client: at most ${limits.replayRoomsPerClient} at once; leave one first`, 429);
      if (replayRooms.size >= limits.replayRoomsMax) throw refused(`the server is replaying for ${limits.replayRoomsMax} viewers already; try later`, 503);
      // Held while the room is made, so that requests at the same moment count it.
      const placeholder = `making:${randomBytes(6).toString('hex')}`;
      replayRooms.set(placeholder, { client: peer, joined: false });
      try {
        return await invoke('create', roomName, serverMade(options, peer), authContext);
      } finally {
        replayRooms.delete(placeholder);
      }
    }
    throw refused(`no room type '${roomName}'`);
  };
}

/** A client may not pass the server's own marks. */
function stripServerKeys(options: unknown): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return {};
  const copy: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  delete copy[MADE_BY_SERVER];
  delete copy.__smalltownClient;
  return copy;
}
