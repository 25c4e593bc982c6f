// Benchmarks on the real models `npm run models:fetch` brings (models/, git-ignored):
// - benchRecall: the sentence embedder against the word vectors on paraphrased questions (recall@5, with a
//   shuffled control), its speed, and retrieval at 10k memories of its dimension;
// - benchLlmReal: llm:check on each chat model, in this process (grammar on and off) and over HTTP through
//   `model:serve` (json_schema honoured and ignored): per variant, the share of asks valid at once, repaired,
//   mended and fallen back, latency and tokens; tokens a second;
// - benchTownReal: the shipped town on SmolLM2 in this process for a wall-time budget: game hours reached, the
//   wall time a game hour costs, calls and tokens per agent-hour, the fallback share, and how busy the model's
//   sequences were (cognition.efficiency.real_smollm2: the model's busy time over the sequences and the wall
//   time of the run; the seed memories rated as the town opened count in neither).
// A missing model stops the bench with the command that fetches it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EmbeddedEmbedder } from '../server/src/llm/embedded';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { recallAtK, shuffled } from '../tests/fixtures/paraphrases';
import { clonePersonas } from './fixtures';
import { manifest } from '../scripts/models/fetch';
import { benchRetrieve } from './memory';
import type { Settings } from './groups';

function modelFile(id: string): string {
  const entry = manifest()[id];
  const file = path.join('models', entry!.file);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run models:fetch\` first`);
  return file;
}

export async function benchRecall(settings: Settings): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const t0 = performance.now();
  const real = await EmbeddedEmbedder.open(modelFile('minilm'));
  out['embedder.real.load_ms'] = performance.now() - t0;
  const seen = new Map<string, Float32Array>();
  const embedReal = async (texts: string[]) => {
    const missing = texts.filter((t) => !seen.has(t));
    (await real.embed(missing)).forEach((v, i) => seen.set(missing[i]!, v));
    return texts.map((t) => seen.get(t)!);
  };
  const words = loadOfflineEmbedder();
  out['memory.recall_at_5.real'] = await recallAtK(embedReal);
  out['memory.recall_at_5.word_vectors'] = await recallAtK((t) => words.embed(t));
  out['memory.recall_at_5.real_shuffled_control'] = await recallAtK(embedReal, 5, shuffled);
  const texts = Array.from({ length: Number(settings.embedderTexts) }, (_, i) => `Isabella Rivera is serving coffee to customer number ${i} at Hobbs Cafe`);
  const t1 = performance.now();
  await real.embed(texts);
  out['embedder.real.texts_per_s'] = texts.length / ((performance.now() - t1) / 1000);
  const r = benchRetrieve(10_000, real.dimension, Number(settings.queries));
  out['memory.retrieve_p50_ms.n10k_d384'] = r.p50;
  out['memory.retrieve_p99_ms.n10k_d384'] = r.p99;
  return out;
}

const CHECK_VARIANTS = [
  { name: 'embedded', http: false, constrained: true },
  { name: 'embedded_free', http: false, constrained: false },
  { name: 'http', http: true, constrained: true },
  { name: 'http_free', http: true, constrained: false },
] as const;

export async function benchLlmReal(settings: Settings): Promise<Record<string, number>> {
  const { runLlmCheck } = await import('../scripts/llmCheck');
  const { startModelServer } = await import('../scripts/modelServe');
  const { EmbeddedChatModel } = await import('../server/src/llm/embedded');
  const out: Record<string, number> = {};
  for (const id of String(settings.models).split(',')) {
    const file = modelFile(id);
    for (const v of CHECK_VARIANTS.filter((c) => String(settings.variants).split(',').includes(c.name))) {
      const server = v.http ? await startModelServer({ model: file, port: 0, jsonSchema: v.constrained, sequences: 1 }) : null;
      const t0 = performance.now();
      const report = await runLlmCheck({
        baseURL: server?.url ?? '',
        modelFile: server ? undefined : file,
        grammar: v.constrained,
        model: path.basename(file),
        repeat: Number(settings.repeat),
        timeoutMs: 600_000,
      });
      const wallS = (performance.now() - t0) / 1000;
      await server?.close();
      const sum = (f: (r: (typeof report.rows)[number]) => number) => report.rows.reduce((n, r) => n + f(r), 0);
      const asks = Math.max(
        1,
        sum((r) => r.asks),
      );
      const prefix = `llm.real.${id}.${v.name}`;
      out[`${prefix}.valid_share`] = sum((r) => r.valid) / asks;
      out[`${prefix}.repaired_share`] = sum((r) => r.repaired) / asks;
      out[`${prefix}.mended_share`] = sum((r) => r.mended) / asks;
      out[`${prefix}.fallback_share`] = sum((r) => r.fellBack) / asks;
      out[`${prefix}.requests_per_ask`] = sum((r) => r.requests) / asks;
      out[`${prefix}.tokens_per_ask`] = sum((r) => r.tokens) / asks;
      out[`${prefix}.wall_s`] = wallS;
      if (v.name === 'embedded') {
        out[`llm.real.${id}.valid_share`] = out[`${prefix}.valid_share`]!;
        out[`llm.real.${id}.fallback_share`] = out[`${prefix}.fallback_share`]!;
        for (const r of report.rows) if (r.asks > 0) out[`llm.real.${id}.fallback_share.${r.purpose}`] = r.fellBack / r.asks;
      }
      console.log(`\n${id} ${v.name} (${wallS.toFixed(0)} s):`);
      console.log((await import('../scripts/llmCheck')).formatCheck(report));
    }
    // Speed on a fixed ask: a plan-sized reply, constrained, on one sequence.
    const model = await EmbeddedChatModel.open({ file, threads: 0, contextSize: 2048, sequences: 1, gpuLayers: 0, grammar: true, timeoutMs: 600_000 });
    for (let i = 0; i < 3; i++)
      await model.generate([{ role: 'user', content: `Describe, in about eighty words, a morning at a small-town cafe (take ${i}).` }], {
        maxTokens: 120,
        temperature: 0,
      });
    const f = model.figures();
    out[`llm.real.tokens_per_s.${id}`] = f.generationTokensPerS ?? 0;
    out[`llm.real.prompt_tokens_per_s.${id}`] = f.promptTokensPerS ?? 0;
    await model.close();
  }
  return out;
}

/** `agents` shipped residents (cloned) on SmolLM2 in this process from 06:00, counting the asks that fall back. */
async function openSmolTown(agents: number, sequences: number): Promise<{ town: import('../server/src/town/Town').Town; fallbacks: () => number }> {
  const { loadConfig } = await import('../server/src/config');
  const { Town } = await import('../server/src/town/Town');
  const { buildMinds } = await import('../server/src/town/minds');
  const { createLogger } = await import('../server/src/town/logger');
  const config = loadConfig(
    {},
    {
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-real-')),
      personasDir: clonePersonas(agents),
      startTime: '2026-02-13T06:00',
      logLevel: 'silent',
      llm: { modelFile: modelFile('smollm2'), sequences, contextSize: 4096, timeoutMs: 300_000 },
    },
  );
  const minds = await buildMinds(config, createLogger('silent'));
  let fallbacks = 0;
  const town = await Town.open(config, {
    embedder: minds.embedder,
    createMind: (hooks) => minds.createMind({ ...hooks, onFallback: (r) => (fallbacks++, hooks.onFallback(r)) }),
    logger: createLogger('silent'),
  });
  return { town, fallbacks: () => fallbacks };
}

/**
 * `agents` residents on SmolLM2 in lockstep from 06:00 (game time moves only as cognition allows) for a budget of wall time,
 * stopped where it has got to when the budget is spent (mid-morning, if that is where: the first game minute waits for
 * every morning plan). What it reached, the asks and tokens it spent, and how busy it kept the model's sequences.
 */
export async function benchTownReal(settings: Settings): Promise<Record<string, number>> {
  const { town, fallbacks } = await openSmolTown(Number(settings.agents), Number(settings.sequences));
  const start = town.gameMs;
  const budgetMs = Number(settings.wallMinutes) * 60_000;
  // The asks of the run only: the seed memories' ratings, made as the town opened, are not in the wall time measured.
  const opened = town.db.db.prepare('SELECT coalesce(max(id), 0) FROM llm_calls').pluck().get() as number;
  const t0 = performance.now();
  const run = town.loop.runLockstep(start + 24 * 3_600_000, 30_000);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([run, new Promise((r) => (timer = setTimeout(r, budgetMs)))]);
  clearTimeout(timer);
  const wallS = (performance.now() - t0) / 1000;
  const hours = (town.gameMs - start) / 3_600_000;
  const n = town.sim.agents().length;
  const calls = town.db.summariseCalls({ afterCallId: opened });
  const busyMs = town.db.db.prepare('SELECT coalesce(sum(latency_ms), 0) FROM llm_calls WHERE cached = 0 AND id > ?').pluck().get(opened) as number;
  // Residents whose day-plan ask the model has answered (a quick plan from the routine meanwhile is not counted).
  const planned = town.db.db.prepare("SELECT count(DISTINCT agent_id) FROM llm_calls WHERE purpose = 'plan' AND outcome = 'ok'").pluck().get() as number;
  const { LlmMind } = await import('../server/src/agent/LlmMind');
  const mind = town.mind as InstanceType<typeof LlmMind>;
  const asks = [...mind.tally.values()].reduce((s, t) => s + t.asks, 0);
  const out: Record<string, number> = {
    'llm.real.town.agents': n,
    'llm.real.town.wall_s': wallS,
    'llm.real.town.game_hours': hours,
    'llm.real.town.agents_planned': planned,
    'llm.real.town.calls': calls.calls,
    'llm.real.town.wall_s_per_game_hour': hours > 0 ? wallS / hours : -1,
    'llm.real.game_days_per_hour.smollm2': hours / 24 / (wallS / 3600),
    'llm.real.town.calls_per_agent_hour': hours > 0 ? calls.calls / n / hours : -1,
    'llm.real.town.tokens_per_agent_hour': hours > 0 ? (calls.promptTokens + calls.completionTokens) / n / hours : -1,
    'llm.real.town.fallback_share': fallbacks() / Math.max(1, asks),
    'cognition.efficiency.real_smollm2': busyMs / Number(settings.sequences) / 1000 / wallS,
  };
  await town.close(5_000);
  await run.catch(() => {});
  return out;
}

/**
 * The served town (what `npm start` runs, as a process) with one spectator and the page open in Chromium, on the offline
 * mind and on SmolLM2 in process: over a window while the model is generating, the patches a second the spectator
 * decodes and the longest gap between two, and the page's frames a second (the whole town in view) and its p99 frame.
 * Inference on llama.cpp's threads must leave the tick, its patches and the page as they are.
 */
export async function benchServedReal(settings: Settings): Promise<Record<string, number>> {
  const { startServerProcess } = await import('./bigTown');
  const { joinSpectators } = await import('./load');
  const { openWholeTown, measureFrames } = await import('./client');
  const { launchBrowser } = await import('../tests/e2e/browser');
  const { build } = await import('vite');
  await build({ configFile: 'client/vite.config.ts', logLevel: 'error' });
  const out: Record<string, number> = {};
  const town = { mapFile: 'maps/town.tmj', personasDir: 'personas' };
  const windowMs = Number(settings.servedWindowS) * 1000;
  for (const [name, env] of [
    ['offline', { EMBEDDER_FILE: 'none' }],
    ['smollm2', { LLM_MODEL_FILE: modelFile('smollm2'), EMBEDDER_FILE: 'none' }],
  ] as const) {
    const server = await startServerProcess(town, { CLOCK_POLICY: 'run', CLOCK_RATE: '60', ...env });
    const browser = await launchBrowser();
    try {
      // The window opens once the town runs: while it starts (seeding its residents' memories, rated by the model) the clock is held.
      const t0 = performance.now();
      while (((await (await fetch(`${server.url}/healthz`)).json()) as { holds: string[] }).holds.includes('starting')) {
        if (performance.now() - t0 > 600_000) throw new Error(`the ${name} town was still starting after 10 minutes`);
        await new Promise((r) => setTimeout(r, 250));
      }
      out[`llm.real.served.starting_s.${name}`] = (performance.now() - t0) / 1000;
      const page = await browser.context.newPage();
      await openWholeTown(page, server.url, 10);
      const [spectator] = await joinSpectators(server.url, 1);
      await new Promise((r) => setTimeout(r, 3000));
      const start = performance.now();
      Object.assign(spectator!, { patches: 0, lastAt: start, maxGapMs: 0 });
      let busySamples = 0;
      let samples = 0;
      const frames = measureFrames(page, windowMs);
      while (performance.now() - start < windowMs) {
        await new Promise((r) => setTimeout(r, 500));
        const h = (await (await fetch(`${server.url}/healthz`)).json()) as { llmModel?: { running: number } };
        samples++;
        if ((h.llmModel?.running ?? 0) > 0) busySamples++;
      }
      const elapsedS = (performance.now() - start) / 1000;
      const { fps, p99 } = await frames;
      out[`llm.real.served.patches_per_s.${name}`] = spectator!.patches / elapsedS;
      out[`llm.real.served.patch_gap_max_ms.${name}`] = spectator!.maxGapMs;
      out[`llm.real.served.fps.${name}`] = fps;
      out[`llm.real.served.frame_p99_ms.${name}`] = p99;
      if (name !== 'offline') out[`llm.real.served.model_busy_share.${name}`] = busySamples / Math.max(1, samples);
      await spectator!.room.leave();
    } finally {
      await browser.close();
      await server.close();
    }
  }
  return out;
}

/**
 * The interview benchmark on SmolLM2's answers: a town of `interviewAgents` residents run in lockstep through
 * its morning, then every resident asked the five categories' questions, graded against its own records, with
 * the offline grader's controls (another agent's records, shuffled records, a generic answer).
 */
export async function benchInterviewReal(settings: Settings): Promise<Record<string, number>> {
  const { interviewTown } = await import('../server/src/analysis/believability');
  const { town } = await openSmolTown(Number(settings.interviewAgents), 2);
  await town.loop.runLockstep(town.gameMs + Number(settings.interviewAfterGameHours) * 3_600_000, 30_000);
  const report = await interviewTown(town);
  const out: Record<string, number> = {
    'interview.real.pass_rate.smollm2': report.overall,
    'interview.real.control_pass_rate.smollm2': report.controlPassRate,
  };
  for (const [category, rate] of Object.entries(report.passRate)) out[`interview.real.pass_rate.smollm2.${category}`] = rate;
  for (const [control, c] of Object.entries(report.controls)) out[`interview.real.control_pass_rate.smollm2.${control}`] = c.overall;
  await town.close();
  return out;
}
