// A snapshot of a big town without holding the loop. The state of ten thousand residents is ~100 MB of
// JSON: serialised and deflated in one go it held the loop (and every viewer's patches, and /healthz)
// for seconds every SNAPSHOT_EVERY_GAME_MINUTES. Here the state is captured at a step's end (a cheap copy
// that later steps leave alone, sim/state.ts `captureState`), turned into JSON a few milliseconds of
// residents at a time between turns of the event loop, and deflated on zlib's thread pool. The bytes
// are what `deflateSync(JSON.stringify(saved))` would give up to key order: the same state is read back.
import { createDeflate } from 'node:zlib';
import type { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { SavedTown } from '../history/stateAt';

/** Wall ms of serialising per turn of the event loop: a tick at 10 Hz waits at most about this long. */
export const SNAPSHOT_SLICE_MS = 8;

export interface SliceOptions {
  /** Wall ms per slice (SNAPSHOT_SLICE_MS). */
  sliceMs?: number;
  /** Asked between slices: true abandons the snapshot (the town closed, or a newer one was saved). */
  abandoned?: () => boolean;
  /** Called after each slice with the residents serialised so far (tests). */
  onSlice?: (agentsDone: number) => void;
  /**
   * Buffers kept from one snapshot to the next (a town's loop keeps one set); the Buffer returned is a view of
   * them, good until the next snapshot made with them. Without, the snapshot has its own.
   */
  buffers?: SnapshotBuffers;
}

/**
 * A town's snapshot buffers, reused: the two input buffers the slices are written to, and the output the deflated
 * bytes are copied to as zlib hands them over. Made afresh at each snapshot, they and zlib's output chunks (kept
 * until the end, then joined) lived for its seconds, past V8's young collections: ~20 MB outside V8's heap a snapshot
 * at 10,000, freed only by a full collection, and V8 starts one for each 64 MB of such memory.
 */
export class SnapshotBuffers {
  readonly input = new SliceBuffers();
  private output = Buffer.allocUnsafeSlow(1 << 20);
  private length = 0;

  /** Starts a snapshot: nothing put or deflated yet. */
  reset(): void {
    this.input.reset();
    this.length = 0;
  }

  /** Copies a chunk of zlib's output (zlib reuses its own buffers: the chunk is not kept). */
  append(chunk: Buffer): void {
    this.output = withRoom(this.output, this.length, this.length + chunk.length);
    this.length += chunk.copy(this.output, this.length);
  }

  /** The deflated bytes so far, as a view of the output buffer. */
  deflated(): Buffer {
    return this.output.subarray(0, this.length);
  }
}

/**
 * The saved town as deflated JSON, serialised in slices of residents between turns of the event loop;
 * null when abandoned. `saved` must not change meanwhile (a captured state, or one nobody steps).
 *
 * Each slice is written as UTF-8 straight into one of two input buffers, kept for the whole snapshot: zlib's thread
 * deflates one while the next slice fills the other. A buffer made per slice (the stream's Buffer.from of a string)
 * was ~60 MB of memory outside V8's heap a snapshot at 10,000, which V8 answers with full collections.
 */
export async function deflateInSlices(saved: Readonly<SavedTown>, options: SliceOptions = {}): Promise<Buffer | null> {
  const sliceMs = options.sliceMs ?? SNAPSHOT_SLICE_MS;
  const deflate = createDeflate({ level: 1 });
  const buffers = options.buffers ?? new SnapshotBuffers();
  buffers.reset();
  const input = buffers.input;
  // Only this snapshot's output, while it is under way (an abandoned stream's last chunk does not reach the next's).
  let live = true;
  deflate.on('data', (chunk: Buffer) => live && buffers.append(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  // Seen at the end (awaited there): an error before it must not be an unhandled rejection meanwhile.
  ended.catch(() => undefined);
  const { agents, ...rest } = saved.sim;
  // {"sim":{...rest,"agents":[a0,a1,...]},"clock":{...}}: rest always has the version, seed and time.
  input.put(`{"sim":${JSON.stringify(rest).slice(0, -1)},"agents":[`);
  let i = 0;
  while (i < agents.length) {
    const started = performance.now();
    do {
      if (i > 0) input.put(',');
      input.put(JSON.stringify(agents[i]));
      i++;
    } while (i < agents.length && performance.now() - started < sliceMs);
    input.writeTo(deflate);
    options.onSlice?.(i);
    // The buffer filled next is the one deflated two slices ago: wait for zlib to be done with it.
    await input.next();
    await new Promise((resolve) => setImmediate(resolve));
    if (options.abandoned?.()) {
      live = false;
      deflate.destroy();
      return null;
    }
  }
  input.put(`]},"clock":${JSON.stringify(saved.clock)}}`);
  input.writeTo(deflate);
  deflate.end();
  await ended;
  live = false;
  return options.abandoned?.() ? null : buffers.deflated();
}

/** Two input buffers used in turn, each grown to its biggest slice; one is written to while zlib reads the other. */
class SliceBuffers {
  private readonly buffers = [Buffer.allocUnsafeSlow(1 << 20), Buffer.allocUnsafeSlow(1 << 20)];
  /** Settles when zlib has consumed the buffer's last write (its stream's write callback). */
  private consumed: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  private current = 0;
  private length = 0;

  /**
   * Starts a snapshot. A stream abandoned before may still be reading a buffer on zlib's thread: what it reads then
   * goes to its own output, which nobody takes.
   */
  reset(): void {
    this.consumed = [Promise.resolve(), Promise.resolve()];
    this.current = 0;
    this.length = 0;
  }

  /** Moves to the other buffer, once zlib is done with what was last written from it. */
  async next(): Promise<void> {
    this.current = 1 - this.current;
    this.length = 0;
    await this.consumed[this.current];
  }

  put(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const buffer = (this.buffers[this.current] = withRoom(this.buffers[this.current], this.length, this.length + text.length * 3));
    this.length += buffer.write(text, this.length, 'utf8');
  }

  /** Hands what was put to the stream; the buffer is not touched again until `consumed` settles (an error included: `ended` reports it). */
  writeTo(stream: Writable): void {
    const chunk = this.buffers[this.current].subarray(0, this.length);
    this.consumed[this.current] = new Promise<void>((resolve) => stream.write(chunk, () => resolve()));
  }
}

/** `buffer`, or a bigger one (twice, or `need`) holding its first `used` bytes, when `need` bytes would not fit. */
function withRoom(buffer: Buffer<ArrayBuffer>, used: number, need: number): Buffer<ArrayBuffer> {
  if (need <= buffer.length) return buffer;
  const bigger = Buffer.allocUnsafeSlow(Math.max(need, buffer.length * 2));
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}
