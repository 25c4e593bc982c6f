// Retrieval by meaning: memories found from questions that share none of their words. The real sentence
// embedder (all-MiniLM-L6-v2, GGUF, in this process) must beat the word vectors at recall@5, and the same
// test with the answers shuffled must fail (recall near chance), so the measure can say no.
import { beforeAll, describe, expect, it } from 'vitest';
import { PARAPHRASES, recallAtK, shuffled } from '../fixtures/paraphrases';
import { loadOfflineEmbedder, tokenize } from '../../server/src/llm/OfflineEmbedder';
import { EmbeddedEmbedder } from '../../server/src/llm/embedded';
import { testModel } from '../models';

const file = testModel('minilm', 'the paraphrase retrieval test');

describe('the paraphrase set', () => {
  it('shares no content word between a question and its memory', () => {
    const stem = (w: string) => w.slice(0, 5);
    for (const p of PARAPHRASES) {
      const memory = new Set(tokenize(p.memory).map(stem));
      const shared = tokenize(p.question).filter((w) => memory.has(stem(w)));
      expect(shared, p.question).toEqual([]);
    }
  });
});

describe.skipIf(!file)('recall@5 on paraphrased questions', () => {
  let real: EmbeddedEmbedder;
  // Each text embedded once: the measure and its control rank the same vectors.
  const seen = new Map<string, Float32Array>();
  const embedReal = async (texts: string[]) => {
    const missing = texts.filter((t) => !seen.has(t));
    (await real.embed(missing)).forEach((v, i) => seen.set(missing[i]!, v));
    return texts.map((t) => seen.get(t)!);
  };
  beforeAll(async () => {
    real = await EmbeddedEmbedder.open(file!);
  }, 60_000);

  it('the real embedder finds most memories, and beats the word vectors', async () => {
    const words = loadOfflineEmbedder();
    const realRecall = await recallAtK(embedReal);
    const wordRecall = await recallAtK((t) => words.embed(t));
    console.log(`recall@5 on ${PARAPHRASES.length} paraphrases: real ${realRecall.toFixed(3)}, word vectors ${wordRecall.toFixed(3)}`);
    expect(realRecall).toBeGreaterThanOrEqual(0.7);
    expect(realRecall).toBeGreaterThan(wordRecall + 0.15);
  }, 300_000);

  it('the control: with the answers shuffled, the same measure fails', async () => {
    const control = await recallAtK(embedReal, 5, shuffled);
    expect(control).toBeLessThan(0.3);
  }, 300_000);

  it('gives unit vectors of the model dimension, the same for the same text', async () => {
    const [a, b] = await real.embed(['the same sentence', 'the same sentence']);
    expect(a!.length).toBe(384);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect([...a!]).toEqual([...b!]);
  });
});
