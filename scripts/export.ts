// `npm run export -- --world NAME --what events|conversations|memories|series|graphml|edges [--out FILE]
//  [--from YYYY-MM-DDTHH:MM] [--to …] [--agent ID] [--kinds K1,K2] [--vectors]`: a world file's data, streamed
// to a file (default DATA_DIR/<name and extension of the export>) or to stdout with `--out -`; the same
// exports, options and errors as GET /api/export/<what>.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { parseIsoMinute } from '../server/src/protocol/time';
import { openWorldForAnalysis } from '../server/src/analysis/browse';
import { EXPORT_KINDS, eventKindsOf, ExportRequestError, exportFile, exportKindOf, writeExport } from '../server/src/analysis/exports';

const USAGE =
  `usage: npm run export -- --world NAME --what ${EXPORT_KINDS.join('|')} ` + '[--out FILE|-] [--from T] [--to T] [--agent ID] [--kinds K1,K2] [--vectors]';

function time(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = parseIsoMinute(v);
  if (t === null) throw new Error(`--${name} ${v}: expected a game time YYYY-MM-DDTHH:MM`);
  return t;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      world: { type: 'string' },
      what: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      agent: { type: 'string' },
      kinds: { type: 'string' },
      vectors: { type: 'boolean' },
    },
    strict: true,
  });
  const config = loadConfig(process.env, {});
  const world = values.world ?? config.world;
  const what = exportKindOf(values.what);
  const o = {
    fromGameMs: time('from', values.from),
    toGameMs: time('to', values.to),
    agentId: values.agent,
    kinds: eventKindsOf(values.kinds),
    vectors: values.vectors ?? false,
  };
  const w = openWorldForAnalysis(config.dataDir, world, config.mapFile);
  const file = values.out ?? path.join(config.dataDir, exportFile(world, what).name);
  const out = file === '-' ? process.stdout : fs.createWriteStream(file);
  try {
    await writeExport(what, w, out, o);
  } finally {
    w.close();
  }
  if (file !== '-') console.error(`wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  if (error instanceof ExportRequestError) console.error(USAGE);
  process.exit(1);
});
