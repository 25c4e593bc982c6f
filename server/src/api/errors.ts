// How HTTP errors answer: JSON `{ error }` under /api, plain text elsewhere, and never a stack trace
// or a server path. A client's mistake (a 4xx from body parsing, static serving or a route) says what
// was wrong; anything else is logged here, with its stack, and answered with its status line only.
import { STATUS_CODES } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { matchMaker } from '@colyseus/core';
import type { Logger } from '../town/logger';

import { hidePaths } from '../core/projectRoot';

export { hidePaths };

/** An error a route throws on purpose: its message is meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Status and client-facing message of anything thrown or passed to next(). */
export function describeHttpError(error: unknown): { status: number; message: string } {
  const e = (error ?? {}) as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown; message?: unknown };
  const raw = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
  const status = raw >= 400 && raw < 600 ? raw : 500;
  if (status >= 500) return { status, message: STATUS_CODES[status] ?? 'Internal Server Error' };
  // body-parser's own messages quote the parser ("Unexpected token } in JSON at position 1"): say it plainly.
  if (e.type === 'entity.parse.failed') return { status, message: 'malformed JSON body' };
  if (e.type === 'entity.too.large') return { status, message: 'request body too large' };
  // http-errors (static serving, body parsing) mark the messages fit for clients with `expose`.
  const mine = error instanceof HttpError || e.expose === true;
  return { status, message: mine && typeof e.message === 'string' ? hidePaths(e.message) : (STATUS_CODES[status] ?? 'Bad Request') };
}

const HIDING = Symbol('smalltown.hidingPaths');

/**
 * Colyseus answers a failed join or create with the room's error message (a replay of a missing file
 * names the file): the same rule applies there. Wraps its matchmaking controller once per process.
 */
export function hidePathsInMatchmakingErrors(): void {
  const controller = matchMaker.controller as typeof matchMaker.controller & { [HIDING]?: true };
  if (controller[HIDING]) return;
  controller[HIDING] = true;
  const invoke = controller.invokeMethod.bind(controller);
  controller.invokeMethod = async (...args) => {
    try {
      return await invoke(...args);
    } catch (error) {
      if (error instanceof Error) error.message = hidePaths(error.message);
      throw error;
    }
  };
}

function answer(req: Request, res: Response, status: number, message: string): void {
  res.status(status);
  if (req.originalUrl === '/api' || req.originalUrl.startsWith('/api/') || req.originalUrl.startsWith('/api?')) res.json({ error: message });
  else res.type('text/plain').send(`${message}\n`);
}

/** The last middleware but one: whatever nothing else answered. */
export function notFound(req: Request, res: Response): void {
  answer(req, res, 404, `nothing at ${req.method} ${req.path}`);
}

/** The last middleware: every error of the app, Express's default page never shown. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const { status, message } = describeHttpError(error);
    if (status >= 500) logger.error(`${req.method} ${req.originalUrl}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    answer(req, res, status, message);
  };
}

/** How deep a JSON body may nest: deeper bodies are refused (400) before any handler walks them. */
export const MAX_JSON_DEPTH = 32;

/** express.json with a size limit, and a depth limit on what it parsed (a 100k-deep body answered 500 before). */
export function boundedJson(limit: string): RequestHandler[] {
  const depthCheck: RequestHandler = (req, _res, next) => {
    next(
      depthOf(req.body as unknown, MAX_JSON_DEPTH) > MAX_JSON_DEPTH
        ? new HttpError(400, `request body nested too deeply (at most ${MAX_JSON_DEPTH} levels)`)
        : undefined,
    );
  };
  return [express.json({ limit }), depthCheck];
}

/** The nesting depth of a parsed JSON value, counted without recursion and no further than `cap` + 1. */
function depthOf(value: unknown, cap: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > cap) return deepest;
    for (const child of Object.values(v as object)) stack.push([child, d + 1]);
  }
  return deepest;
}
