// Downloads: GET /api/export/<events|conversations|memories|series|graphml|edges>?world=<id>&from=&to=&agent=
// streamed from a read-only connection (constant memory; see analysis/exports.ts). Open to spectators.
import express, { type Request, type Response, type NextFunction } from 'express';
import type { Config } from '../config';
import { eventKindsOf, exportFile, exportKindOf, writeExport } from '../analysis/exports';
import { answerWorldError, stringParam, timeParam, withWorld } from './analysis';

export function mountExportApi(app: express.Router, config: Config): void {
  const api = express.Router();
  api.get('/:what', (req: Request<{ what: string }>, res, next) => {
    withWorld(req, config, async (w) => {
      // An unknown export or event kind throws ExportRequestError: a 400 naming it (answerWorldError).
      const what = exportKindOf(req.params.what);
      const kinds = eventKindsOf(stringParam(req, 'kinds'));
      const o = {
        fromGameMs: timeParam(req, 'from'),
        toGameMs: timeParam(req, 'to'),
        agentId: stringParam(req, 'agent'),
        kinds,
        vectors: req.query.vectors === '1',
      };
      const file = exportFile(w.id, what);
      res.setHeader('Content-Type', `${file.type}; charset=utf-8`);
      res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
      await writeExport(what, w, res, o);
    }).catch(next);
  });
  api.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
    answerWorldError(error, res, next);
  });
  app.use('/api/export', api);
}
