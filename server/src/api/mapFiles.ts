// A hosted world's map over HTTP, at /towns/<world>/map/…: the same files, by the same rules, as
// /maps serves for the default world (mapAssets.ts: the map's JSON with its tileset images renamed
// `assets/<n>/<name>`, and those images; nothing else), for any world by name.
import path from 'node:path';
import type { RequestHandler } from 'express';
import { describeMapAssets, type MapAsset } from './mapAssets';
import { HttpError } from './errors';

export interface WorldMap {
  /** The map's file name: its URL is /towns/<world>/map/<mapName>. */
  mapName: string;
  json: string;
  assets: MapAsset[];
}

/** Reads the map once, as the town loaded it. */
export function worldMapOf(mapFile: string): WorldMap {
  const { served, json } = describeMapAssets(mapFile);
  return { mapName: path.basename(mapFile), json, assets: served.assets };
}

/** For a route `/towns/:world/map/*file`: the world's map, or one of its tileset images. */
export function serveWorldMaps(mapOf: (world: string) => WorldMap | null): RequestHandler {
  return (req, res, next) => {
    const params = req.params as { world?: string; file?: string | string[] };
    const wanted = Array.isArray(params.file) ? params.file.join('/') : (params.file ?? '');
    const map = mapOf(params.world ?? '');
    if (map && wanted === map.mapName) return void res.type('application/json').send(map.json);
    const m = /^assets\/(\d+)\/([^/]+)$/.exec(wanted);
    const asset = m && map ? map.assets[Number(m[1])] : undefined;
    if (!asset || m![2] !== path.basename(asset.file)) return next(new HttpError(404, `no map file '${wanted}' here`));
    res.sendFile(asset.file, { dotfiles: 'allow' }, (error) => error && next(new HttpError(404, `no map file '${wanted}' here`)));
  };
}
