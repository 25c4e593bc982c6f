// The pieces under the quantised retrieval: the SIMD kernels against plain JavaScript, the query's
// quantisation at its limits, and the recency column against recencyOf.
import { describe, expect, it } from 'vitest';
import { dots4Reference, dots8Reference, packInt4, QUERY_ABS_SUM_LIMIT, simdDotsOn } from '../../server/src/store/simdDots';
import { quantiseQuery } from '../../server/src/store/ColumnCache';
import { recencyIntoOffsets, recencyOf, TIME_HIGH_UNIT } from '../../server/src/store/scoring';
import { Rng } from '../../server/src/sim/rng';

const HOUR = 3_600_000;

function kernelsWith(bytes: number) {
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1 });
  return { memory, ...simdDotsOn(memory) };
}

describe('the SIMD kernels', () => {
  it('compute int16 · int8 dot products exactly, at the extremes too', () => {
    const rng = new Rng(1);
    const stride = 1536;
    const rows = 50;
    const { memory, dots8 } = kernelsWith(stride * 2 + rows * 4 + rows * stride);
    const query = new Int16Array(memory.buffer, 0, stride);
    const outAt = stride * 2;
    const rowsAt = outAt + rows * 4;
    const data = new Int8Array(memory.buffer, rowsAt, rows * stride);
    // Σ|query| at the limit, and rows at ±127: the largest sums the callers allow.
    for (let i = 0; i < stride; i++) query[i] = (i % 2 ? 1 : -1) * Math.floor(QUERY_ABS_SUM_LIMIT / stride);
    for (let r = 0; r < rows; r++)
      for (let i = 0; i < stride; i++) data[r * stride + i] = r === 0 ? (i % 2 ? 127 : -127) : r === 1 ? -127 * Math.sign(query[i]) : rng.int(-127, 127);
    dots8(0, rowsAt, outAt, rows, stride);
    const got = new Int32Array(memory.buffer, outAt, rows);
    const want = dots8Reference(query, data, stride, rows);
    expect(Array.from(got)).toEqual(Array.from(want));
    expect(Math.abs(want[0])).toBeGreaterThan(2 ** 31 * 0.99); // the extreme case is really at the edge
    for (let i = 0; i < stride; i++) query[i] = rng.int(-32767, 32767) >> 6;
    dots8(0, rowsAt, outAt, rows, stride);
    expect(Array.from(new Int32Array(memory.buffer, outAt, rows))).toEqual(Array.from(dots8Reference(query, data, stride, rows)));
  });

  it('gather rows from anywhere in the memory, in the order the list gives, repeats included', () => {
    const rng = new Rng(3);
    for (const stride of [32, 128, 1536]) {
      const rows = 40;
      const listed = [7, 0, 39, 7, 12, 38, 1, 1, 20];
      const { memory, dots8, gather8 } = kernelsWith(stride * 2 + listed.length * 8 + rows * stride);
      const query = new Int16Array(memory.buffer, 0, stride);
      for (let i = 0; i < stride; i++) query[i] = rng.int(-32767, 32767) >> 6;
      const outAt = stride * 2;
      const listAt = outAt + listed.length * 4;
      const rowsAt = listAt + listed.length * 4;
      const data = new Int8Array(memory.buffer, rowsAt, rows * stride);
      for (let i = 0; i < data.length; i++) data[i] = rng.int(-127, 127);
      new Uint32Array(memory.buffer, listAt, listed.length).set(listed.map((r) => rowsAt + r * stride));
      gather8(0, listAt, outAt, listed.length, stride);
      const got = Array.from(new Int32Array(memory.buffer, outAt, listed.length));
      const all = dots8Reference(query, data, stride, rows);
      expect(got).toEqual(listed.map((r) => all[r]));
      // the contiguous kernel over the same rows agrees (a control: a list of every row in order)
      dots8(0, rowsAt, outAt, rows, stride);
      expect(Array.from(new Int32Array(memory.buffer, outAt, rows))).toEqual(Array.from(all));
    }
  });

  it('compute int16 · packed int4 dot products exactly, in the layout packInt4 writes', () => {
    const rng = new Rng(2);
    for (const stride of [32, 128, 1536]) {
      const rows = 20;
      const rowBytes = stride / 2;
      const { memory, dots4 } = kernelsWith(stride * 2 + rows * 4 + rows * rowBytes);
      const query = new Int16Array(memory.buffer, 0, stride);
      for (let i = 0; i < stride; i++) query[i] = rng.int(-32767, 32767);
      const outAt = stride * 2;
      const rowsAt = outAt + rows * 4;
      const packed = new Uint8Array(memory.buffer, rowsAt, rows * rowBytes);
      const values: number[][] = [];
      for (let r = 0; r < rows; r++) {
        const v = Array.from({ length: stride }, () => rng.int(-8, 7));
        values.push(v);
        packInt4(v, packed.subarray(r * rowBytes));
      }
      dots4(0, rowsAt, outAt, rows, rowBytes);
      const got = Array.from(new Int32Array(memory.buffer, outAt, rows));
      expect(got).toEqual(Array.from(dots4Reference(query, packed, rowBytes, rows)));
      // and against the unpacked values, so a layout mistake in both would still show
      expect(got).toEqual(values.map((v) => v.reduce((s, x, i) => s + x * query[i], 0)));
    }
  });
});

describe('the quantised query', () => {
  it('keeps Σ|q16| within the kernel limit and reports its own error, even for a flat query', () => {
    for (const d of [8, 100, 1536, 4096]) {
      const flat = new Float32Array(d).fill(1 / Math.sqrt(d));
      const spiky = new Float32Array(d).fill(1e-6);
      spiky[3] = 1;
      for (const q of [flat, spiky]) {
        const stride = Math.ceil(d / 32) * 32;
        const z = quantiseQuery(q, stride);
        const sumAbs = z.query16.reduce((s, x) => s + Math.abs(x), 0);
        expect(sumAbs).toBeLessThanOrEqual(QUERY_ABS_SUM_LIMIT);
        let err2 = 0;
        let norm2 = 0;
        const scale = z.factor * z.norm;
        for (let i = 0; i < d; i++) {
          err2 += (q[i] - scale * z.query16[i]) ** 2;
          norm2 += q[i] ** 2;
        }
        expect(z.errorNorm).toBeCloseTo(Math.sqrt(err2) / Math.sqrt(norm2), 12);
        expect(z.errorNorm).toBeLessThan(1e-3);
      }
    }
  });

  it('marks a zero query, whose relevance is exactly 0 everywhere', () => {
    expect(quantiseQuery(new Float32Array(16), 32).norm).toBe(0);
  });
});

describe('the recency column', () => {
  it('equals recencyOf bit for bit', () => {
    const rng = new Rng(3);
    const n = 5000;
    const last = Float64Array.from({ length: n }, () => rng.int(0, 500 * HOUR));
    const out = new Float64Array(n);
    last[0] = 501 * HOUR + 17; // accessed just now
    last[1] = 502 * HOUR; // in the future: clamped to now
    // The times as the cache keeps them: u32 offsets from a base of 0, and again from a base 2^32 ms earlier with a high part of 1.
    const low = Uint32Array.from(last);
    const high = new Int8Array(n).fill(1);
    for (const [decay, base, highs] of [0.995, 0.99, 0.5, 1, 0].flatMap((d) => [[d, 0, null] as const, [d, -TIME_HIGH_UNIT, high] as const])) {
      recencyIntoOffsets(base, low, highs, n, 501 * HOUR + 17, decay, out);
      for (let p = 0; p < n; p++) expect(Object.is(out[p], recencyOf(last[p], 501 * HOUR + 17, decay))).toBe(true);
      expect([out[0], out[1]]).toEqual([1, 1]);
      // decay^hours: exp(h·ln decay) errs by a few ulps, more as the exponent grows (its rounding scales with it)
      for (let p = 2; p < n; p += 97) {
        const want = decay ** ((501 * HOUR + 17 - last[p]) / HOUR);
        if (want === 0) expect(out[p]).toBe(0);
        else expect(Math.abs(out[p] - want)).toBeLessThanOrEqual((Math.abs(Math.log(want)) + 4) * Number.EPSILON * want);
      }
    }
  });
});
