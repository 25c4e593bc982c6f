// Serves the map and only what it references: GET /maps/<map file name> gives the map's JSON with each
// tileset image rewritten to `assets/<n>/<basename>`, and GET /maps/assets/<n>/<basename> the image,
// resolved relative to the map file wherever it sits ("../tilesets/x.png" included). Nothing else
// under /maps is served: not the map's folder, not a script beside it, not a path with "..".
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

export interface MapAsset {
  /** The path the map names, e.g. "../tilesets/town.png". */
  reference: string;
  /** The file on disk it resolves to. */
  file: string;
  /** Where the browser gets it, relative to /maps/. */
  url: string;
}

export interface ServedMap {
  /** "/maps/<map file name>". */
  mapUrl: string;
  assets: MapAsset[];
  /** The images the map names that are not on disk (served as 404; the client draws without them). */
  missing: MapAsset[];
  /** What the map names as a tileset image that is not an image file: never served. */
  refused: string[];
}

/** Only image files are served, whatever a map names: a map cannot expose other files by naming them. */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp|bmp)$/i;

/** The map's tileset images and the JSON the browser gets, with their paths rewritten. */
export function describeMapAssets(mapFile: string): { served: ServedMap; json: string } {
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { tilesets?: Array<{ image?: string }> };
  const dir = path.dirname(path.resolve(mapFile));
  const assets: MapAsset[] = [];
  const refused: string[] = [];
  const byFile = new Map<string, MapAsset>();
  for (const ts of map.tilesets ?? []) {
    if (typeof ts.image !== 'string' || !ts.image) continue;
    if (!IMAGE_FILE.test(ts.image)) {
      refused.push(ts.image);
      ts.image = '';
      continue;
    }
    const file = path.resolve(dir, ts.image);
    let asset = byFile.get(file);
    if (!asset) {
      asset = { reference: ts.image, file, url: `assets/${assets.length}/${encodeURIComponent(path.basename(file))}` };
      assets.push(asset);
      byFile.set(file, asset);
    }
    ts.image = asset.url;
  }
  const missing = assets.filter((a) => !fs.existsSync(a.file));
  return { served: { mapUrl: `/maps/${encodeURIComponent(path.basename(mapFile))}`, assets, missing, refused }, json: JSON.stringify(map) };
}

/** Mounts GET /maps/* on `app` for `mapFile` (read once, as the town loaded it); says which images are missing. */
export function mountMapAssets(app: express.Express, mapFile: string, warn: (message: string) => void = () => undefined): ServedMap {
  const { served, json } = describeMapAssets(mapFile);
  for (const a of served.missing) warn(`${mapFile}: tileset image '${a.reference}' is not at ${a.file}; the browser draws the map without it`);
  for (const r of served.refused) warn(`${mapFile}: tileset image '${r}' is not an image file (.png, .jpg, .gif, .webp, .bmp); not served`);
  const mapName = path.basename(mapFile);
  app.use('/maps', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const wanted = decodeURIComponentSafe(req.path);
    // Refuse any ".." segment outright, encoded or not.
    if (/(^|\/)\.\.(\/|$)/.test(wanted)) return void res.status(400).type('text/plain').send('bad path');
    if (wanted === `/${mapName}`) return void res.type('application/json').send(json);
    const m = /^\/assets\/(\d+)\/([^/]+)$/.exec(wanted);
    const asset = m ? served.assets[Number(m[1])] : undefined;
    if (!asset || m![2] !== path.basename(asset.file)) return void res.status(404).type('text/plain').send('not found');
    res.sendFile(asset.file, { dotfiles: 'allow' }, (error) => {
      if (error && !res.headersSent) res.status(404).type('text/plain').send('not found');
    });
  });
  return served;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
