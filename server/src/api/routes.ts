// HTTP API: read-only views for anyone; writes need the operator token (Authorization: Bearer <token>).
import express, { type Request, type Response, type NextFunction } from 'express';
import path from 'node:path';
import type { Town } from '../town/Town';
import { inspectAgent } from '../town/inspect';
import { describeEvent } from '../protocol/feedText';

export interface ApiOptions {
  operatorToken: string;
  mapFile: string;
}

export function mountApi(app: express.Express, town: Town, options: ApiOptions): void {
  const api = express.Router();
  api.use(express.json({ limit: '64kb' }));

  api.get('/town', (_req, res) => {
    res.json({
      world: town.map.places.world,
      mapUrl: `/maps/${path.basename(options.mapFile)}`,
      mind: town.mind.label,
      agents: town.sim.agents().map((a) => ({ id: a.spec.id, name: a.spec.name })),
      places: town.map.places,
    });
  });

  api.get('/agents/:id', (req, res, next) => {
    inspectAgent(town, req.params.id).then((view) => res.status('error' in view ? 404 : 200).json(view), next);
  });

  api.get('/events', (req, res) => {
    const from = Math.max(0, Number(req.query.from ?? 0) || 0);
    const limit = Math.min(5000, Math.max(1, Number(req.query.limit ?? 500) || 500));
    const events = town.db.events.read(from, Number.MAX_SAFE_INTEGER, limit);
    res.json({ lastSeq: town.db.events.lastSeq(), events });
  });

  api.get('/feed', (req, res) => {
    const limit = Math.min(500, Math.max(1, Number(req.query.limit ?? 100) || 100));
    const last = town.db.events.lastSeq();
    const items = town.db.events
      .read(Math.max(0, last - 5000), last, 5000)
      .map((e) => ({ seq: e.seq, gameMs: e.gameMs, kind: e.kind, agentId: e.agentId, text: describeEvent(e, (id) => town.personas.get(id)?.name ?? id) }))
      .filter((i) => i.text !== null)
      .slice(-limit);
    res.json({ items });
  });

  api.get('/llm/calls', (_req, res) => {
    res.json(town.db.summariseCalls());
  });

  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    res.status(400).json({ error: error instanceof Error ? error.message : String(error) });
  });
  app.use('/api', api);
}
