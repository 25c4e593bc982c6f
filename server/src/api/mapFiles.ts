// A hosted world's map over HTTP, at /towns/<world>/map/<file>: the map itself and the tileset images
// it names, nothing else from its folder (a generated town's folder also holds its personas).
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

/** URL path under the map's folder -> the file on disk. */
export function mapFilesOf(mapFile: string): Map<string, string> {
  const file = path.resolve(mapFile);
  const dir = path.dirname(file);
  const files = new Map([[path.basename(file), file]]);
  const tmj = JSON.parse(fs.readFileSync(file, 'utf8')) as { tilesets?: Array<{ image?: unknown }> };
  for (const tileset of tmj.tilesets ?? []) {
    if (typeof tileset.image !== 'string') continue;
    const image = path.resolve(dir, tileset.image);
    // An image outside the map's folder cannot be named by a URL under it: the browser could not load it either.
    if (image.startsWith(`${dir}${path.sep}`)) files.set(path.relative(dir, image).split(path.sep).join('/'), image);
  }
  return files;
}

/** For a route `/towns/:world/map/*file`: serves the world's map files by their path under the map's folder. */
export function serveMapFiles(filesOf: (world: string) => Map<string, string> | null): RequestHandler {
  return (req, res, next) => {
    const params = req.params as { world?: string; file?: string | string[] };
    const wanted = Array.isArray(params.file) ? params.file.join('/') : (params.file ?? '');
    const file = filesOf(params.world ?? '')?.get(wanted);
    if (!file) return next(new HttpError(404, `no map file '${wanted}' here`));
    res.sendFile(file, { maxAge: 0 }, (error) => error && next(error));
  };
}
