// Downloads: GET /api/export/<events|conversations|memories|series|graphml|edges>?world=<id>&from=&to=&agent=
// streamed from a read-only connection (constant memory; see analysis/exports.ts). Open to spectators.
import express, { type Request, type Response, type NextFunction } from 'express';
import type { Config } from '../config';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';
import { EVENT_KINDS, type EventKind } from '../protocol/events';
import { buildReport } from '../analysis/report';
import {
  EXPORT_KINDS,
  exportConversations,
  exportEdges,
  exportEvents,
  exportFile,
  exportGraphml,
  exportMemories,
  exportSeries,
  type ExportKind,
} from '../analysis/exports';
import { answerWorldError, BadRequest, stringParam, timeParam, withWorld } from './analysis';

export function mountExportApi(app: express.Router, config: Config): void {
  const api = express.Router();
  api.get('/:what', (req: Request<{ what: string }>, res, next) => {
    const what = req.params.what as ExportKind;
    withWorld(req, config, async (w) => {
      if (!EXPORT_KINDS.includes(what)) throw new BadRequest(`no export '${what}' (exports: ${EXPORT_KINDS.join(', ')})`);
      const kinds = stringParam(req, 'kinds')?.split(',');
      const unknown = kinds?.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
      if (unknown?.length) throw new BadRequest(`kinds: no event kind ${unknown.join(', ')}`);
      const o = {
        fromGameMs: timeParam(req, 'from'),
        toGameMs: timeParam(req, 'to'),
        agentId: stringParam(req, 'agent'),
        kinds: kinds as EventKind[] | undefined,
        vectors: req.query.vectors === '1',
      };
      const file = exportFile(w.id, what);
      res.setHeader('Content-Type', `${file.type}; charset=utf-8`);
      res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
      switch (what) {
        case 'events':
          return exportEvents(w.db, res, o);
        case 'conversations':
          return exportConversations(w.db, res, o);
        case 'memories':
          return exportMemories(w.db, res, o);
        case 'graphml':
          return exportGraphml(w.db, res, o);
        case 'edges':
          return exportEdges(w.db, res, o);
        case 'series': {
          const report = await buildReport(w.db, w.map, loadOfflineEmbedder(), { world: w.id, window: { fromGameMs: o.fromGameMs, toGameMs: o.toGameMs } });
          return exportSeries(report, res);
        }
      }
    }).catch(next);
  });
  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
    answerWorldError(error, res, next);
  });
  app.use('/api/export', api);
}
