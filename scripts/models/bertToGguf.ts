// Converts a sentence-transformers BERT encoder (config.json, tokenizer.json, model.safetensors, as the
// all-MiniLM-L6-v2 packages on PyPI carry it) into one GGUF file that llama.cpp (node-llama-cpp) runs as an
// embedding model: architecture 'bert', WordPiece vocabulary, mean pooling, every tensor kept in F32.
// The names and keys are llama.cpp's (gguf-py's tensor map for BERT); the file layout is GGUF version 3.
import fs from 'node:fs';
import path from 'node:path';

/** GGUF value types (gguf.h). */
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
const GGML_F32 = 0;
const ALIGN = 32;
/** tokenizer.ggml.token_type: llama.cpp's NORMAL and CONTROL. */
const TOKEN_NORMAL = 1;
const TOKEN_CONTROL = 3;
/** {arch}.pooling_type: MEAN. */
const POOLING_MEAN = 1;

type Value =
  { type: 'u32' | 'i32' | 'f32' | 'bool' | 'str'; value: number | boolean | string } | { type: 'arr'; of: 'str' | 'i32'; values: (string | number)[] };

interface SafeTensor {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export interface BertConversion {
  file: string;
  tensors: number;
  vocab: number;
  bytes: number;
}

/** Reads `dir` (a sentence-transformers model folder) and writes `out`. Throws naming the file that is wrong. */
export function convertBertToGguf(dir: string, out: string, name = path.basename(dir)): BertConversion {
  const read = (file: string) => {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) throw new Error(`${full}: missing (a sentence-transformers BERT folder holds config.json, tokenizer.json and model.safetensors)`);
    return fs.readFileSync(full);
  };
  const config = JSON.parse(read('config.json').toString('utf8')) as BertConfig;
  if (config.model_type !== 'bert') throw new Error(`${path.join(dir, 'config.json')}: model_type is '${String(config.model_type)}', expected 'bert'`);
  const tokenizer = JSON.parse(read('tokenizer.json').toString('utf8')) as WordPieceTokenizer;
  if (tokenizer.model.type !== 'WordPiece') throw new Error(`${path.join(dir, 'tokenizer.json')}: a ${tokenizer.model.type} tokenizer, expected WordPiece`);
  const kv = [...modelMetadata(config, name, poolingOf(dir)), ...tokenizerMetadata(config, tokenizer)];
  const tensors = bertTensors(read('model.safetensors'), path.join(dir, 'model.safetensors'), Number(config.num_hidden_layers));
  const bytes = writeGguf(out, kv, tensors);
  return { file: out, tensors: tensors.length, vocab: Number(config.vocab_size), bytes };
}

type BertConfig = Record<string, number | string | string[]>;
interface WordPieceTokenizer {
  model: { type: string; vocab: Record<string, number> };
  added_tokens: { id: number; content: string; special: boolean }[];
}
type Tensor = { name: string; dims: number[]; data: Buffer };

/** The architecture's keys, as llama.cpp's BERT loader reads them. */
function modelMetadata(config: BertConfig, name: string, pooling: number): [string, Value][] {
  const arch = 'bert';
  return [
    ['general.architecture', { type: 'str', value: arch }],
    ['general.name', { type: 'str', value: name }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['general.alignment', { type: 'u32', value: ALIGN }],
    [`${arch}.context_length`, { type: 'u32', value: Number(config.max_position_embeddings) }],
    [`${arch}.embedding_length`, { type: 'u32', value: Number(config.hidden_size) }],
    [`${arch}.feed_forward_length`, { type: 'u32', value: Number(config.intermediate_size) }],
    [`${arch}.block_count`, { type: 'u32', value: Number(config.num_hidden_layers) }],
    [`${arch}.attention.head_count`, { type: 'u32', value: Number(config.num_attention_heads) }],
    [`${arch}.attention.layer_norm_epsilon`, { type: 'f32', value: Number(config.layer_norm_eps ?? 1e-12) }],
    [`${arch}.attention.causal`, { type: 'bool', value: false }],
    [`${arch}.pooling_type`, { type: 'u32', value: pooling }],
  ];
}

/** The vocabulary in id order, with llama.cpp's phantom space (a word-initial piece gets '▁', a '##' piece loses it), and the special ids. */
function tokenizerMetadata(config: BertConfig, tokenizer: WordPieceTokenizer): [string, Value][] {
  const tokens: string[] = new Array(Number(config.vocab_size)).fill('');
  for (const [piece, id] of Object.entries(tokenizer.model.vocab)) tokens[id] = piece;
  const special = new Set(tokenizer.added_tokens.filter((t) => t.special).map((t) => t.id));
  const types = tokens.map((_, id) => (special.has(id) ? TOKEN_CONTROL : TOKEN_NORMAL));
  const phantom = tokens.map((t, id) => (special.has(id) ? t : t.startsWith('##') ? t.slice(2) : `\u2581${t}`));
  const kv: [string, Value][] = [
    ['tokenizer.ggml.model', { type: 'str', value: 'bert' }],
    ['tokenizer.ggml.token_type_count', { type: 'u32', value: Number(config.type_vocab_size ?? 2) }],
    ['tokenizer.ggml.tokens', { type: 'arr', of: 'str', values: phantom }],
    ['tokenizer.ggml.token_type', { type: 'arr', of: 'i32', values: types }],
  ];
  const specials: [string, string][] = [
    ['tokenizer.ggml.bos_token_id', '[CLS]'],
    ['tokenizer.ggml.seperator_token_id', '[SEP]'],
    ['tokenizer.ggml.unknown_token_id', '[UNK]'],
    ['tokenizer.ggml.padding_token_id', '[PAD]'],
    ['tokenizer.ggml.mask_token_id', '[MASK]'],
  ];
  for (const [key, content] of specials) {
    const id = tokenizer.added_tokens.find((t) => t.content === content)?.id;
    if (id !== undefined) kv.push([key, { type: 'u32', value: id }]);
  }
  return kv;
}

/** The safetensors' tensors, renamed; GGUF lists dimensions innermost first (numpy's shape reversed). */
function bertTensors(st: Buffer, file: string, layers: number): Tensor[] {
  const headerLength = Number(st.readBigUInt64LE(0));
  const header = JSON.parse(st.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, SafeTensor>;
  const dataStart = 8 + headerLength;
  const tensors: Tensor[] = [];
  for (const [hfName, t] of Object.entries(header)) {
    if (hfName === '__metadata__') continue;
    const renamed = tensorName(hfName.replace(/^bert\./, ''));
    if (renamed === null) continue;
    if (t.dtype !== 'F32') throw new Error(`${file}: ${hfName} is ${t.dtype}, expected F32`);
    tensors.push({ name: renamed, dims: [...t.shape].reverse(), data: st.subarray(dataStart + t.data_offsets[0], dataStart + t.data_offsets[1]) });
  }
  const expected = 5 + layers * 16;
  if (tensors.length !== expected) throw new Error(`${file}: ${tensors.length} BERT tensors found, expected ${expected}`);
  return tensors;
}

/** A GGUF v3 file of `kv` and F32 `tensors`, written beside `out` and renamed onto it; its size in bytes. */
function writeGguf(out: string, kv: [string, Value][], tensors: Tensor[]): number {
  const parts: Buffer[] = [];
  const head = new Writer();
  head.u32(0x46554747); // 'GGUF'
  head.u32(3);
  head.u64(tensors.length);
  head.u64(kv.length);
  for (const [key, value] of kv) head.kv(key, value);
  let offset = 0;
  for (const t of tensors) {
    head.str(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_F32);
    head.u64(offset);
    offset += pad(t.data.length);
  }
  const headBytes = head.bytes();
  parts.push(headBytes, Buffer.alloc(pad(headBytes.length) - headBytes.length));
  for (const t of tensors) parts.push(t.data, Buffer.alloc(pad(t.data.length) - t.data.length));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  const fd = fs.openSync(partial, 'w');
  let bytes = 0;
  try {
    for (const p of parts) {
      fs.writeSync(fd, p);
      bytes += p.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(partial, out);
  return bytes;
}

function poolingOf(dir: string): number {
  const file = path.join(dir, '1_Pooling', 'config.json');
  if (!fs.existsSync(file)) return POOLING_MEAN;
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, boolean>;
  if (!p.pooling_mode_mean_tokens) throw new Error(`${file}: only mean pooling is converted (this model pools otherwise)`);
  return POOLING_MEAN;
}

const LAYER_PARTS: Record<string, string> = {
  'attention.self.query': 'attn_q',
  'attention.self.key': 'attn_k',
  'attention.self.value': 'attn_v',
  'attention.output.dense': 'attn_output',
  'attention.output.LayerNorm': 'attn_output_norm',
  'intermediate.dense': 'ffn_up',
  'output.dense': 'ffn_down',
  'output.LayerNorm': 'layer_output_norm',
};
const TOP: Record<string, string> = {
  'embeddings.word_embeddings': 'token_embd',
  'embeddings.token_type_embeddings': 'token_types',
  'embeddings.position_embeddings': 'position_embd',
  'embeddings.LayerNorm': 'token_embd_norm',
};

/** llama.cpp's name for a Hugging Face BERT tensor; null for the ones an embedding model does not use. */
export function tensorName(hf: string): string | null {
  const m = /^(.*)\.(weight|bias)$/.exec(hf);
  if (!m) return null;
  const [, base, kind] = m;
  if (TOP[base!]) return `${TOP[base!]}.${kind}`;
  const layer = /^encoder\.layer\.(\d+)\.(.+)$/.exec(base!);
  if (layer && LAYER_PARTS[layer[2]!]) return `blk.${layer[1]}.${LAYER_PARTS[layer[2]!]}.${kind}`;
  return null; // the pooler and any head: unused for embeddings
}

const pad = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

class Writer {
  private chunks: Buffer[] = [];
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.chunks.push(b);
  }
  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.chunks.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.chunks.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.chunks.push(b);
  }
  kv(key: string, v: Value): void {
    this.str(key);
    switch (v.type) {
      case 'u32':
        this.u32(T.UINT32);
        this.u32(v.value as number);
        break;
      case 'i32':
        this.u32(T.INT32);
        this.i32(v.value as number);
        break;
      case 'f32': {
        this.u32(T.FLOAT32);
        const b = Buffer.alloc(4);
        b.writeFloatLE(v.value as number);
        this.chunks.push(b);
        break;
      }
      case 'bool':
        this.u32(T.BOOL);
        this.chunks.push(Buffer.from([v.value ? 1 : 0]));
        break;
      case 'str':
        this.u32(T.STRING);
        this.str(v.value as string);
        break;
      case 'arr':
        this.u32(T.ARRAY);
        this.u32(v.of === 'str' ? T.STRING : T.INT32);
        this.u64(v.values.length);
        for (const x of v.values) {
          if (v.of === 'str') this.str(x as string);
          else this.i32(x as number);
        }
        break;
    }
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
