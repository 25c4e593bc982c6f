// `npm run export -- --world NAME --what events|conversations|memories|series|graphml|edges [--out FILE]
//  [--from YYYY-MM-DDTHH:MM] [--to …] [--agent ID] [--vectors]`: a world file's data, streamed to a
// file (default DATA_DIR/<name and extension of the export>) or to stdout with `--out -`.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { parseIsoMinute } from '../server/src/protocol/time';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { openWorldForAnalysis } from '../server/src/analysis/browse';
import { buildReport } from '../server/src/analysis/report';
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
} from '../server/src/analysis/exports';

const USAGE = `usage: npm run export -- --world NAME --what ${EXPORT_KINDS.join('|')} [--out FILE|-] [--from T] [--to T] [--agent ID] [--vectors]`;

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
      vectors: { type: 'boolean' },
    },
    strict: true,
  });
  const config = loadConfig(process.env, {});
  const world = values.world ?? config.world;
  const what = values.what as ExportKind | undefined;
  if (!what || !EXPORT_KINDS.includes(what)) throw new Error(`--what: one of ${EXPORT_KINDS.join(', ')}\n${USAGE}`);
  const o = { fromGameMs: time('from', values.from), toGameMs: time('to', values.to), agentId: values.agent, vectors: values.vectors ?? false };
  const w = openWorldForAnalysis(config.dataDir, world, config.mapFile);
  const file = values.out ?? path.join(config.dataDir, exportFile(world, what).name);
  const out = file === '-' ? process.stdout : fs.createWriteStream(file);
  try {
    if (what === 'events') await exportEvents(w.db, out, o);
    else if (what === 'conversations') await exportConversations(w.db, out, o);
    else if (what === 'memories') await exportMemories(w.db, out, o);
    else if (what === 'graphml') await exportGraphml(w.db, out, o);
    else if (what === 'edges') await exportEdges(w.db, out, o);
    else await exportSeries(await buildReport(w.db, w.map, loadOfflineEmbedder(), { world, window: o }), out);
  } finally {
    w.close();
  }
  if (file !== '-') console.error(`wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
