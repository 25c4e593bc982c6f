// HTTP API: read-only views for anyone; writes need the operator token (Authorization: Bearer <token>).
import express from 'express';
import path from 'node:path';
import type { Town } from '../town/Town';
import { inspectAgent } from '../town/inspect';
import { toldOf } from '../protocol/feedText';
import type { AddablePersonasReply, TownInfo } from '../protocol/api';
import { mountPersonaApi } from './personas';
import { boundedJson } from './errors';

export interface ApiOptions {
  operatorToken: string;
  mapFile: string;
  /** Where the map is served for this world by name (`/towns/<world>/map/…`), asked for with `?world=`. */
  worldMapUrl: string;
}

/** One town's views; the app picks the town by `?world=` (default: the first world). Errors go to the app's handler. */
export function apiRouter(town: Town, options: ApiOptions): express.Router {
  const api = express.Router();
  api.use(boundedJson('64kb'));

  api.get('/town', (req, res) => {
    const info: TownInfo = {
      name: town.config.world,
      world: town.map.places.world,
      mapUrl: req.query.world === undefined ? `/maps/${path.basename(options.mapFile)}` : options.worldMapUrl,
      mind: town.mind.label,
      agents: town.sim.agents().map((a) => ({ id: a.spec.id, name: a.spec.name })),
      places: town.map.places,
    };
    res.json(info);
  });

  /** Persona files in PERSONAS_DIR that are not in town: what the operator's "add agent" control offers. */
  api.get('/personas', (_req, res) => {
    const reply: AddablePersonasReply = { personas: town.commands.addablePersonas() };
    res.json(reply);
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
    const events = town.db.events.read(Math.max(0, last - 5000), last, 5000);
    const items = toldOf(events, (id) => town.personas.get(id)?.name ?? id).feed.slice(-limit);
    res.json({ items });
  });

  api.get('/llm/calls', (_req, res) => {
    res.json(town.db.summariseCalls());
  });

  mountPersonaApi(api, town, options.operatorToken);

  return api;
}
