// A snapshot of a big town without holding the loop. The state of ten thousand residents is ~100 MB of
// JSON: serialised and deflated in one go it held the loop (and every viewer's patches, and /healthz)
// for seconds every SNAPSHOT_EVERY_GAME_MINUTES. Here the state is captured at a step's end (a cheap copy
// that later steps leave alone, sim/state.ts `captureState`), turned into JSON a few milliseconds of
// residents at a time between turns of the event loop, and deflated on zlib's thread pool. The bytes
// are what `deflateSync(JSON.stringify(saved))` would give up to key order: the same state is read back.
import { createDeflate } from 'node:zlib';
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
}

/**
 * The saved town as deflated JSON, serialised in slices of residents between turns of the event loop;
 * null when abandoned. `saved` must not change meanwhile (a captured state, or one nobody steps).
 */
export async function deflateInSlices(saved: Readonly<SavedTown>, options: SliceOptions = {}): Promise<Buffer | null> {
  const sliceMs = options.sliceMs ?? SNAPSHOT_SLICE_MS;
  const deflate = createDeflate({ level: 1 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  const write = async (text: string): Promise<void> => {
    // The thread pool deflates behind us; past its buffer, wait for it rather than hold the JSON in memory.
    if (!deflate.write(text)) await new Promise<void>((resolve) => deflate.once('drain', resolve));
  };
  const { agents, ...rest } = saved.sim;
  // {"sim":{...rest,"agents":[a0,a1,...]},"clock":{...}}: rest always has the version, seed and time.
  let text = `{"sim":${JSON.stringify(rest).slice(0, -1)},"agents":[`;
  let i = 0;
  while (i < agents.length) {
    const started = performance.now();
    do {
      text += (i > 0 ? ',' : '') + JSON.stringify(agents[i]);
      i++;
    } while (i < agents.length && performance.now() - started < sliceMs);
    await write(text);
    text = '';
    options.onSlice?.(i);
    await new Promise((resolve) => setImmediate(resolve));
    if (options.abandoned?.()) {
      deflate.destroy();
      return null;
    }
  }
  deflate.end(`${text}]},"clock":${JSON.stringify(saved.clock)}}`);
  await ended;
  return options.abandoned?.() ? null : Buffer.concat(chunks);
}
