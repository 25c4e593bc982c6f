import { openWorldDb } from './server/src/store/WorldDb';
import { scanWorldDefects } from './server/src/analysis/defects';
import { loadOfflineEmbedder } from './server/src/llm/OfflineEmbedder';
const e = loadOfflineEmbedder();
const db = openWorldDb(process.argv[2], { model: e.model, dimension: e.dimension });
const hits = scanWorldDefects(db);
const by = new Map<string, string[]>();
for (const h of hits) (by.get(h.pattern) ?? by.set(h.pattern, []).get(h.pattern)!).push(`${h.where}: ${h.text.slice(0, 200)}`);
for (const [p, l] of by) { console.log(p, l.length); for (const x of [...new Set(l)].slice(0, 4)) console.log('   ', x); }
