// WebAssembly SIMD kernels for the quantised scan: integer dot products of one int16 query with rows
// of int8 (or packed int4) vectors, all in one linear memory. Plain JavaScript does about one
// multiply-add per cycle, too slow for 100k × 1536 in a few milliseconds; wasm SIMD does 16 per few
// cycles.
//
// The module is a few hundred bytes, assembled here from named opcodes (no toolchain, no dependency)
// and checked against the JavaScript references below in tests/unit/quantisedScan.test.ts.
//
// dots8(query, rows, out, count, rowBytes): for r in [0, count):
//   out[r] (i32) = Σ_i query[i] (i16) · rows[r·rowBytes + i] (i8),  i in [0, rowBytes)
// dots4(query, rows, out, count, rowBytes): the same for rows of packed 4-bit values, two a byte,
//   2·rowBytes values a row, laid out by packInt4.
// gather8(query, list, out, count, rowBytes): dots8 over rows anywhere in the memory: row r starts at the
//   address list[r] (u32), so rows shared by several agents' columns are scanned where they are.
// rowBytes is a multiple of ROW_ALIGN_BYTES (dots8) or of ROW_ALIGN_BYTES/2 (dots4). The lanes add
// with wrap-around, so each result is the exact sum modulo 2^32, hence exact whenever the exact sum
// fits in an i32: the caller keeps |row[i]| ≤ 127 and Σ|query[i]| ≤ QUERY_ABS_SUM_LIMIT.

/** Rows are padded (with zeros) to a multiple of this many values: the kernels read 32 per step. */
export const ROW_ALIGN_BYTES = 32;

/** With |row[i]| ≤ 127, Σ|query[i]| up to this keeps every dot product inside the i32 range. */
export const QUERY_ABS_SUM_LIMIT = Math.floor((2 ** 31 - 1) / 127);

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br_if: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Store: 0x36,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32Ne: 0x47,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  simd: 0xfd,
} as const;
const simd = {
  v128Load: 0x00,
  v128Load8x8S: 0x01,
  v128Const: 0x0c,
  i32x4ExtractLane: 0x1b,
  i16x8Shl: 0x8b,
  i16x8ShrS: 0x8c,
  i32x4Add: 0xae,
  i32x4DotI16x8S: 0xba,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const simdOp = (code: number, ...imm: number[]) => [op.simd, ...uleb(code), ...imm];
const memarg = (offset: number) => [0, ...uleb(offset)]; // alignment hint 1: any address is allowed

type Emit = (i: number) => number[];

/**
 * One kernel: for each row, four i32x4 accumulators, a loop that consumes rowStep bytes of the row
 * and 64 bytes (32 int16) of the query per step, then the 16 lanes summed into out[r]. Rows follow one
 * another, or (gather) each starts where the next u32 of the list at param 1 says.
 */
function kernelBody(rowStep: number, steps: (acc: number[], rows: number, q: number) => number[], gather = false): number[] {
  // params: 0 query, 1 rows (or the list), 2 out, 3 count, 4 rowBytes; locals: 5 q, 6 end, 7 the row (gather), 8..11 accumulators
  const [query, list, out, count, rowBytes, q, end] = [0, 1, 2, 3, 4, 5, 6];
  const rows = gather ? 7 : list;
  const acc = [8, 9, 10, 11];
  const get: Emit = (i) => [op.localGet, i];
  const set: Emit = (i) => [op.localSet, i];
  const zero = simdOp(simd.v128Const, ...new Array(16).fill(0));
  const code = [
    op.block, 0x40,
    ...get(count), op.i32Eqz, op.br_if, 0,
    op.loop, 0x40, // one row
    ...acc.flatMap((a) => [...zero, ...set(a)]),
    ...(gather ? [...get(list), op.i32Load, 2, 0, ...set(rows), ...get(list), op.i32Const, ...sleb(4), op.i32Add, ...set(list)] : []),
    ...get(query), ...set(q),
    ...get(rows), ...get(rowBytes), op.i32Add, ...set(end),
    op.loop, 0x40, // 32 values of the row
    ...steps(acc, rows, q),
    ...get(q), op.i32Const, ...sleb(64), op.i32Add, ...set(q),
    ...get(rows), op.i32Const, ...sleb(rowStep), op.i32Add, op.localTee, rows,
    ...get(end), op.i32LtU, op.br_if, 0,
    op.end,
    // out[r] = sum of the four lanes of the four accumulators
    ...get(acc[0]), ...get(acc[1]), ...simdOp(simd.i32x4Add),
    ...get(acc[2]), ...get(acc[3]), ...simdOp(simd.i32x4Add),
    ...simdOp(simd.i32x4Add), ...set(acc[0]),
    ...get(out),
    ...get(acc[0]), ...simdOp(simd.i32x4ExtractLane, 0),
    ...get(acc[0]), ...simdOp(simd.i32x4ExtractLane, 1), op.i32Add,
    ...get(acc[0]), ...simdOp(simd.i32x4ExtractLane, 2), op.i32Add,
    ...get(acc[0]), ...simdOp(simd.i32x4ExtractLane, 3), op.i32Add,
    op.i32Store, 2, 0,
    ...get(out), op.i32Const, ...sleb(4), op.i32Add, ...set(out),
    ...get(count), op.i32Const, ...sleb(1), op.i32Sub, op.localTee, count,
    op.i32Const, 0, op.i32Ne, op.br_if, 0,
    op.end,
    op.end,
    op.end, // function
  ];
  const locals = vec([
    [3, I32],
    [4, V128],
  ]);
  return [...locals, ...code];
}

// acc += dot(values, 8 int16 of the query at q + qOffset)
const accumulate = (acc: number, values: number[], q: number, qOffset: number) => [
  op.localGet, acc,
  ...values,
  op.localGet, q, ...simdOp(simd.v128Load, ...memarg(qOffset)),
  ...simdOp(simd.i32x4DotI16x8S),
  ...simdOp(simd.i32x4Add),
  op.localSet, acc,
];
// 8 int8 at rows + offset, sign-extended to int16
const load8 = (rows: number, offset: number) => [op.localGet, rows, ...simdOp(simd.v128Load8x8S, ...memarg(offset))];
const shift = (code: number, bits: number) => [op.i32Const, ...sleb(bits), ...simdOp(code)];

/** 32 int8 values a step: four loads of 8. */
const steps8 = (acc: number[], rows: number, q: number) => [0, 1, 2, 3].flatMap((i) => accumulate(acc[i], load8(rows, 8 * i), q, 16 * i));

/**
 * 32 int4 values a step (16 bytes). Each 8 bytes hold 16 values: byte j's low nibble is value j and
 * its high nibble value 8 + j. Sign-extended to int16, a byte's low nibble is (x << 12) >> 12 and its
 * high nibble x >> 4.
 */
const steps4 = (acc: number[], rows: number, q: number) =>
  [0, 1].flatMap((half) => [
    ...accumulate(acc[2 * half], [...load8(rows, 8 * half), ...shift(simd.i16x8Shl, 12), ...shift(simd.i16x8ShrS, 12)], q, 32 * half),
    ...accumulate(acc[2 * half + 1], [...load8(rows, 8 * half), ...shift(simd.i16x8ShrS, 4)], q, 32 * half + 16),
  ]);

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const bodies = [kernelBody(32, steps8), kernelBody(16, steps4), kernelBody(32, steps8, true)];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0]])), // (i32 ×5) → ()
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x00]])), // memory, min 0 pages
    ...section(3, vec([[0], [0], [0]])),
    ...section(7, vec([
      [...name('dots8'), 0x00, 0],
      [...name('dots4'), 0x00, 1],
      [...name('gather8'), 0x00, 2],
    ])),
    ...section(10, vec(bodies.map((b) => [...uleb(b.length), ...b]))),
  ]);
}

export type DotsKernel = (query: number, rows: number, out: number, count: number, rowBytes: number) => void;

let compiled: WebAssembly.Module | undefined;

/** The kernels bound to a memory. Throws where WebAssembly SIMD is missing (Node ≥ 16.4 has it). */
export function simdDotsOn(memory: WebAssembly.Memory): { dots8: DotsKernel; dots4: DotsKernel; gather8: DotsKernel } {
  compiled ??= new WebAssembly.Module(moduleBytes());
  const { exports } = new WebAssembly.Instance(compiled, { env: { memory } });
  return { dots8: exports.dots8 as DotsKernel, dots4: exports.dots4 as DotsKernel, gather8: exports.gather8 as DotsKernel };
}

/** Packs int4 values (each in [-8, 7]; length a multiple of 16) in the layout dots4 reads. */
export function packInt4(values: ArrayLike<number>, into: Uint8Array | Int8Array): void {
  for (let g = 0; g < values.length; g += 16)
    for (let j = 0; j < 8; j++) into[g / 2 + j] = (values[g + j] & 0x0f) | ((values[g + 8 + j] & 0x0f) << 4);
}

/** dots8 in plain JavaScript: the reference the kernel is tested against. */
export function dots8Reference(query: Int16Array, rows: Int8Array, stride: number, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let r = 0; r < count; r++) {
    let s = 0;
    for (let i = 0; i < stride; i++) s += query[i] * rows[r * stride + i];
    out[r] = s;
  }
  return out;
}

/** dots4 in plain JavaScript, unpacking as packInt4 packs. */
export function dots4Reference(query: Int16Array, rows: Uint8Array, rowBytes: number, count: number): Int32Array {
  const out = new Int32Array(count);
  const nibble = (x: number) => (x & 8 ? x - 16 : x);
  for (let r = 0; r < count; r++) {
    let s = 0;
    for (let g = 0; g < 2 * rowBytes; g += 16)
      for (let j = 0; j < 8; j++) {
        const byte = rows[r * rowBytes + g / 2 + j];
        s += query[g + j] * nibble(byte & 0x0f) + query[g + 8 + j] * nibble(byte >> 4);
      }
    out[r] = s;
  }
  return out;
}
