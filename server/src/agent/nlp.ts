// compromise (the part-of-speech tagger behind the offline mind's voice), loaded on first use rather
// than at start-up: building its lexicon takes about half a second of CPU, most of a restart's cost,
// and a town on an LLM may never need it. `warmNlp()` loads it a moment after the town starts (index.ts).
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

type Nlp = typeof nlpType;
let loaded: Nlp | null = null;

function load(): Nlp {
  // compromise's CommonJS build is one prebuilt file: faster to load than its ES module tree.
  loaded ??= createRequire(import.meta.url)('compromise') as Nlp;
  return loaded;
}

/** compromise's `nlp(text)`, loading the library on the first call. */
export const nlp = ((text: string) => load()(text)) as Nlp;

/** Loads compromise now (after start-up, so the first offline conversation does not pay for it). */
export function warmNlp(): void {
  load();
}
