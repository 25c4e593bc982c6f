// The stub's latency model in virtual time: a lone request takes its time to first token plus its tokens,
// longer replies take longer, a fuller batch writes each token slower but serves more per second, and
// requests past the slots wait in a queue. Each property is also checked on a fixed-latency server (the
// stub's old mode), which must fail it.
import { describe, expect, it } from 'vitest';
import { BatchServer, VLLM_8B_A100, loneLatencyMs, perTokenMs, type LatencyModel } from '../fakes/batchServer';

/** Latencies (ms) of requests all sent at time 0, in the order sent. */
function latencies(model: LatencyModel, requests: Array<{ prompt: number; out: number }>): number[] {
  const server = new BatchServer(model, 0);
  const ids = requests.map((r) => server.submit(r.prompt, r.out, 0).id);
  const ends = new Map<number, number>();
  for (let guard = 0; guard < 10_000; guard++) {
    const next = server.nextEventMs();
    if (next === null) break;
    for (const f of server.advance(next)) ends.set(f.id, f.finishedMs - f.arrivedMs);
  }
  return ids.map((id) => ends.get(id)!);
}

const same = (n: number, out = 100, prompt = 500) => Array.from({ length: n }, () => ({ prompt, out }));

/** What a realistic server shows; each returns a failure message or null. */
const properties = {
  'latency grows with the tokens written': (m: LatencyModel) => {
    const [short, long] = [latencies(m, [{ prompt: 500, out: 20 }])[0], latencies(m, [{ prompt: 500, out: 400 }])[0]];
    return long > 2 * short ? null : `400 tokens took ${long} ms against ${short} ms for 20`;
  },
  'latency grows with the batch': (m: LatencyModel) => {
    const lone = latencies(m, same(1))[0];
    const eight = Math.max(...latencies(m, same(8)));
    return eight > 1.1 * lone ? null : `8 at once took ${eight} ms each against ${lone} ms alone`;
  },
  'requests past the slots queue': (m: LatencyModel) => {
    const n = Number.isFinite(m.slots) ? m.slots : 64;
    const full = latencies(m, same(n));
    const over = latencies(m, same(n + 1));
    // The one past the slots waits for the batch to end, then runs (alone).
    const lone = latencies(m, same(1))[0];
    return over[n] > full[0] + 0.9 * lone ? null : `request ${n + 1} took ${over[n]} ms against ${full[0]} ms in a full batch`;
  },
};

describe('the batching server', () => {
  it('serves a lone request in its time to first token plus its tokens at batch 1', () => {
    const m = VLLM_8B_A100;
    expect(latencies(m, [{ prompt: 1024, out: 128 }])[0]).toBeCloseTo(15 + 1024 * 0.04 + 128 * 13, 6);
    expect(loneLatencyMs(m, 1024, 128)).toBeCloseTo(1719.96, 6);
    // The published A100 figure this is drawn from: about 75 tokens/s for a lone request.
    expect(1000 / perTokenMs(m, 1)).toBeGreaterThan(70);
    expect(1000 / perTokenMs(m, 1)).toBeLessThan(80);
  });

  it('writes each token slower in a fuller batch, and serves more tokens a second', () => {
    const m = VLLM_8B_A100;
    const lone = latencies(m, same(1))[0];
    const batch = latencies(m, same(m.slots));
    // Equal requests sent together end together, each at the batch's per-token time.
    expect(new Set(batch.map((l) => Math.round(l))).size).toBe(1);
    expect(batch[0]).toBeCloseTo(15 + 500 * 0.04 + 100 * perTokenMs(m, m.slots), 6);
    const throughput = (n: number, ms: number) => (n * 100) / ms;
    expect(throughput(m.slots, batch[0]) / throughput(1, lone)).toBeGreaterThan(8);
    // The published sweep: about 6.6× the lone throughput at 8 requests.
    const eight = latencies(m, same(8))[0];
    expect(throughput(8, eight) / throughput(1, lone)).toBeGreaterThan(5.5);
    expect(throughput(8, eight) / throughput(1, lone)).toBeLessThan(7.5);
  });

  it('speeds up the rest of the batch when a short request leaves it', () => {
    const m: LatencyModel = { slots: 4, firstTokenMs: 0, prefillMsPerToken: 0, decodeMsPerToken: 10, batchSlowdown: 0.5 };
    // Two at once: 10 tokens at 15 ms each; then the long one alone writes its other 90 at 10 ms.
    const [short, long] = latencies(m, [
      { prompt: 0, out: 10 },
      { prompt: 0, out: 100 },
    ]);
    expect(short).toBeCloseTo(150, 6);
    expect(long).toBeCloseTo(150 + 90 * 10, 6);
  });

  it('queues requests past its slots, first come first served, and frees a slot when a client goes away', () => {
    const m: LatencyModel = { slots: 2, firstTokenMs: 5, prefillMsPerToken: 0, decodeMsPerToken: 10, batchSlowdown: 0 };
    expect(latencies(m, same(3, 10, 0))).toEqual([105, 105, 210]);
    const server = new BatchServer(m, 0);
    const a = server.submit(0, 10, 0).id;
    server.submit(0, 10, 0);
    const c = server.submit(0, 10, 0).id;
    expect(server.figures.queued).toBe(1);
    // The first client goes away at 50 ms: the queued request starts then, and what a was not served leaves the bound.
    const bound = server.figures.fullBatchBoundMs;
    server.cancel(a, 50);
    expect(bound - server.figures.fullBatchBoundMs).toBeCloseTo(55 / 2, 6);
    const ends = server.advance(1000);
    expect(ends.find((f) => f.id === c)!.finishedMs).toBeCloseTo(50 + 105, 6);
  });

  it('sums the least time the server needs for what it served: every slot full', () => {
    const m = VLLM_8B_A100;
    const server = new BatchServer(m, 0);
    for (let i = 0; i < 32; i++) server.submit(500, 100, 0);
    const bound = server.figures.fullBatchBoundMs;
    expect(bound).toBeCloseTo((32 * (15 + 500 * 0.04 + 100 * perTokenMs(m, 16))) / 16, 6);
    let last = 0;
    for (let next = server.nextEventMs(); next !== null; next = server.nextEventMs()) last = Math.max(last, ...server.advance(next).map((f) => f.finishedMs));
    // Sent together and equal, two full batches back to back meet the bound exactly.
    expect(last).toBeCloseTo(bound, 6);
  });

  it.each(Object.entries(properties))('%s, and a fixed-latency server does not', (_name, check) => {
    expect(check(VLLM_8B_A100)).toBeNull();
    // The old stub: 1 s whatever the reply and the load, with room for every request.
    const fixed: LatencyModel = { slots: Infinity, firstTokenMs: 1000, prefillMsPerToken: 0, decodeMsPerToken: 0, batchSlowdown: 0 };
    expect(check(fixed)).not.toBeNull();
  });

  it('names what is wrong with a bad model', () => {
    expect(() => new BatchServer({ ...VLLM_8B_A100, slots: 0 })).toThrow(/slots must be ≥ 1/);
    expect(() => new BatchServer({ ...VLLM_8B_A100, decodeMsPerToken: -1 })).toThrow(/latency model/);
  });
});
