// /api/towns: the towns running (on this process, and on the others sharing its Redis), for anyone;
// starting and stopping one, for the operator (Authorization: Bearer <token>).
import express, { type NextFunction, type Request, type Response } from 'express';
import { StartTownRequest, type TownList } from '../protocol/towns';
import { boundedJson, HttpError } from './errors';
import { operatorTokenThrottle, TokenThrottle } from '../core/tokenThrottle';

/** What the router needs from whoever hosts the towns. Errors it throws carry their status (HttpError). */
export interface TownDirectory {
  list(): Promise<TownList>;
  start(request: StartTownRequest): Promise<{ name: string; url: string }>;
  stop(name: string): Promise<void>;
}

/** Refuses a request without the operator token, in constant time; wrong tokens are throttled per address (429). */
export function requireOperator(operatorToken: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer (.+)$/i.exec(header.trim());
    if (!match) return next(new HttpError(401, 'operator only: send Authorization: Bearer <operator token>'));
    const verdict = operatorTokenThrottle().check(req.socket.remoteAddress ?? 'unknown', match[1]!, operatorToken);
    if (verdict.kind === 'throttled') {
      res.setHeader('Retry-After', String(Math.ceil(verdict.retryAfterMs / 1000)));
      return next(new HttpError(429, TokenThrottle.message(verdict.retryAfterMs)));
    }
    if (verdict.kind === 'wrong') return next(new HttpError(403, 'wrong operator token'));
    next();
  };
}

export function townsRouter(directory: TownDirectory, options: { operatorToken: string }): express.Router {
  const router = express.Router();
  const operator = requireOperator(options.operatorToken);
  router.get('/towns', (_req, res, next) => {
    directory.list().then((list) => res.json(list), next);
  });
  router.post('/towns', operator, ...boundedJson('8kb'), (req, res, next) => {
    const parsed = StartTownRequest.safeParse(req.body ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
      return next(new HttpError(400, problems.join('; ')));
    }
    directory.start(parsed.data).then((started) => res.status(201).json(started), next);
  });
  router.delete('/towns/:name', operator, (req, res, next) => {
    const name = String(req.params.name);
    directory.stop(name).then(() => res.json({ stopped: name }), next);
  });
  return router;
}
