import Database from 'better-sqlite3';
import { readMeaning } from './server/src/agent/meaning';
const db = new Database('/tmp/w42/base/valentines.sqlite', { readonly: true });
const rows = db.prepare('select distinct description from memories').all() as Array<{description: string}>;
let n = 0; const t0 = Date.now();
for (const r of rows) { try { readMeaning(r.description); n++; } catch (e) { console.log('ERR', r.description, (e as Error).stack?.split('\n').slice(0,3).join(' | ')); } }
console.log(n, rows.length, Date.now() - t0, 'ms');
