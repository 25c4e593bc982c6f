// The relationship graph's layout, off the page's main thread: one request in, progress and positions out.
import { layoutGraph, type LayoutMessage, type LayoutRequest } from './layout';

const post = (m: LayoutMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = (ev: MessageEvent<LayoutRequest>) => {
  const t0 = performance.now();
  const { x, y } = layoutGraph(ev.data, (done) => post({ kind: 'progress', done }));
  post({ kind: 'done', x, y, ms: performance.now() - t0 }, [x.buffer, y.buffer]);
};
