// HTTP for the analysis page (/analysis; the world files come from /api/worlds): a world's report over a window, the
// relationship graph, the conversation browser and one agent's day. Read-only, open to spectators;
// every world (the live one too) is read through its own read-only connection.
import express, { type Request, type Response, type NextFunction } from 'express';
import type { Config } from '../config';
import type { Town } from '../town/Town';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';
import { parseIsoMinute, GAME_MS_PER_DAY } from '../protocol/time';
import { buildReport, type Report } from '../analysis/report';
import { readWorldFacts } from '../analysis/facts';
import { ExportRequestError, relationshipGraph } from '../analysis/exports';
import { agentDay, findConversations, openWorldForAnalysis, type OpenedWorld } from '../analysis/browse';
import { clientPage } from './clientPages';
import { diffusionBand, worldsOfSeedsRun } from '../analysis/band';
import { hidePaths } from './errors';
import { WorldFileError } from '../store/WorldDb';

const REPORT_CACHE_SIZE = 8;

export class BadRequest extends Error {}

/**
 * A bad parameter is 400, a world file that is not there or cannot be read 404, each with its reason
 * and no server folder in it; anything else goes to the app's error handler (logged, answered 500 bare).
 */
export function answerWorldError(error: unknown, res: Response, next: NextFunction): void {
  const message = hidePaths(error instanceof Error ? error.message : String(error));
  if (error instanceof BadRequest || error instanceof ExportRequestError) res.status(400).json({ error: message });
  else if (error instanceof WorldFileError || /no such world file|is not a world name/.test(message)) res.status(404).json({ error: message });
  else next(error);
}

/** A game time from a query parameter: "2026-02-14T17:00" or game ms; undefined when absent. */
export function timeParam(req: Request, name: string): number | undefined {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new BadRequest(`${name}: expected one value`);
  const t = /^-?\d+$/.test(v) ? Number(v) : parseIsoMinute(v);
  if (t === null || !Number.isFinite(t)) throw new BadRequest(`${name}: expected a game time YYYY-MM-DDTHH:MM, got '${v}'`);
  return t;
}

export function stringParam(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new BadRequest(`${name}: expected one value`);
  return v;
}

/** Opens the world a request names (`?world=<id>`; the live world when absent), and closes it after `use`. */
export async function withWorld<T>(req: Request, config: Pick<Config, 'dataDir' | 'world' | 'mapFile'>, use: (w: OpenedWorld) => T | Promise<T>): Promise<T> {
  const id = stringParam(req, 'world') ?? config.world;
  const w = openWorldForAnalysis(config.dataDir, id, config.mapFile);
  try {
    return await use(w);
  } finally {
    w.close();
  }
}

export function mountAnalysisApi(app: express.Router, town: Town, config: Config): void {
  const api = express.Router();
  const reports = new Map<string, Report>();
  const fallbackRelationships = new Map([...town.personas.values()].map((p) => [p.id as string, Object.keys(p.relationships)]));

  app.get('/analysis', clientPage('analysis.html', config.dev));

  api.get('/report', (req, res, next) => {
    withWorld(req, config, async (w) => {
      const from = timeParam(req, 'from');
      const to = timeParam(req, 'to');
      const topic = stringParam(req, 'topic');
      const key = `${w.id}|${w.db.events.lastSeq()}|${from}|${to}|${topic ?? ''}`;
      let report = reports.get(key);
      if (!report) {
        report = await buildReport(w.db, w.map, loadOfflineEmbedder(), {
          world: w.id,
          window: { fromGameMs: from, toGameMs: to },
          extraTopics: topic ? [{ name: 'query', phrase: topic }] : [],
          fallbackRelationships: w.id === config.world ? fallbackRelationships : undefined,
        });
        reports.set(key, report);
        if (reports.size > REPORT_CACHE_SIZE) reports.delete(reports.keys().next().value!);
      }
      res.json(report);
    }).catch(next);
  });

  api.get('/graph', (req, res, next) => {
    withWorld(req, config, (w) => {
      const facts = readWorldFacts(w.db);
      if (!facts.relationships && w.id === config.world) facts.relationships = fallbackRelationships;
      res.json(relationshipGraph(facts, { fromGameMs: timeParam(req, 'from'), toGameMs: timeParam(req, 'to') }));
    }).catch(next);
  });

  api.get('/conversations', (req, res, next) => {
    withWorld(req, config, (w) => {
      const pair = stringParam(req, 'pair')?.split(',');
      if (pair && pair.length !== 2) throw new BadRequest('pair: expected two agent ids, "a,b"');
      const limit = Number(stringParam(req, 'limit') ?? 200);
      if (!Number.isInteger(limit) || limit < 1 || limit > 2000) throw new BadRequest('limit: expected 1 to 2000');
      res.json(
        findConversations(w.db, {
          agent: stringParam(req, 'agent'),
          pair: pair as [string, string] | undefined,
          place: stringParam(req, 'place'),
          fromGameMs: timeParam(req, 'from'),
          toGameMs: timeParam(req, 'to'),
          text: stringParam(req, 'q'),
          limit,
        }),
      );
    }).catch(next);
  });

  api.get('/agent-day', (req, res, next) => {
    withWorld(req, config, (w) => {
      const agent = stringParam(req, 'agent');
      if (!agent) throw new BadRequest('agent: required');
      const from = timeParam(req, 'from');
      if (from === undefined) throw new BadRequest('from: required (the start of the day, YYYY-MM-DDTHH:MM)');
      const to = timeParam(req, 'to') ?? from + GAME_MS_PER_DAY;
      res.json({ agent, from, to, entries: agentDay(w.db, agent, from, to) });
    }).catch(next);
  });

  // The diffusion curve over seeds: `?seeds=<name>` (a seeds run's worlds) or `?worlds=a,b,c`, each over its whole run.
  api.get('/band', (req, res, next) => {
    (async () => {
      const seeds = stringParam(req, 'seeds');
      const named = stringParam(req, 'worlds')?.split(',');
      if (!seeds === !named) throw new BadRequest('give seeds=<a seeds run> or worlds=<a,b,c>');
      const worlds = seeds ? worldsOfSeedsRun(config.dataDir, seeds) : named!;
      if (worlds.length < 2 || worlds.length > 50) throw new BadRequest(`worlds: expected 2 to 50 worlds, got ${worlds.length}`);
      const each: Report[] = [];
      for (const id of worlds) {
        const w = openWorldForAnalysis(config.dataDir, id, config.mapFile);
        try {
          const key = `${w.id}|${w.db.events.lastSeq()}|||`;
          const report = reports.get(key) ?? (await buildReport(w.db, w.map, loadOfflineEmbedder(), { world: w.id }));
          reports.set(key, report);
          each.push(report);
        } finally {
          w.close();
        }
      }
      if (reports.size > REPORT_CACHE_SIZE) for (const k of [...reports.keys()].slice(0, reports.size - REPORT_CACHE_SIZE)) reports.delete(k);
      res.json(diffusionBand(each));
    })().catch((error: unknown) => next(error instanceof Error && /^seeds: /.test(error.message) ? new BadRequest(error.message) : error));
  });

  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    answerWorldError(error, res, next);
  });
  app.use('/api/analysis', api);
}
