// Cognition benchmarks: 25 agents over one game day on the OpenAI-compatible stub (1 s latency,
// concurrency 32), once per conversation mode (turns: a call per line; whole: a call per conversation):
// calls and tokens per agent-day, by purpose, and the efficiency of the wall time against the bound the
// endpoint sets (calls × latency / concurrency). The same against the stub as a batching server (`.realistic`:
// Llama-3.1-8B on an A100 under vLLM, tests/fakes/batchServer.ts), whose bound is the least time it needs for
// the requests it served, every slot full. Plus the offline mind: its speed, and what an offline
// day of the shipped town shows of its cognition (own actions, whom it talks to, invitations that change
// plans, statuses, variety of talk, the interview benchmark's pass rates).
// Run alone with `npx tsx bench/cognition.ts`.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../tests/fakes/openaiStub';
import { VLLM_8B_A100, perTokenMs, type LatencyModel } from '../tests/fakes/batchServer';
import { generatedTown } from './bigTown';
import { installTownResponders } from '../tests/fakes/townResponders';
import { loadConfig, type ConfigInput, type ConversationMode } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { buildMinds } from '../server/src/town/minds';
import { createLogger } from '../server/src/town/logger';
import { GAME_MS_PER_DAY, GAME_MS_PER_HOUR, dayIndex, formatGameTime } from '../server/src/protocol/time';
import { measureCognition } from '../server/src/analysis/cognition';
import { interviewTown } from '../server/src/analysis/believability';
import { clonePersonas } from './fixtures';
import type { LlmMind } from '../server/src/agent/LlmMind';

const AGENTS = 25;
const LATENCY_MS = 1000;
const CONCURRENCY = 32;

async function openTown(overrides: Partial<ConfigInput>, personasDir = clonePersonas(AGENTS)): Promise<Town> {
  const config = loadConfig(
    {},
    { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-')), personasDir, startTime: '2026-02-13T00:00', logLevel: 'silent', ...overrides },
  );
  const minds = await buildMinds(config, createLogger('silent'));
  return Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
}

/** p-th percentile (0–1) of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
}

/**
 * The LLM mind, live: the clock runs as fast as cognition lets it (CLOCK_POLICY=wait). `latency`: the stub
 * answers every request after 1 s ('fixed'), or as a batching server ('realistic'; its figures end in `.realistic`).
 */
export async function benchLlmDay(
  mode: ConversationMode,
  prefix: string,
  mistakeRate = 0,
  latency: 'fixed' | 'realistic' = 'fixed',
  faultyRepairs = true,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const suffix = latency === 'realistic' ? '.realistic' : '';
  const key = (name: string) => `${prefix}.${name}${suffix}`;
  const timing = latency === 'realistic' ? { latencyModel: VLLM_8B_A100 } : { latencyMs: LATENCY_MS };
  // With faults, repair turns and the response-format probe are faulty at the same rate (its first reply cut off
  // for certain), unless `faultyRepairs` is false (the earlier measure, `…_clean_repairs`).
  const faultyAll = mistakeRate > 0 && faultyRepairs;
  const stub = installTownResponders(
    await new OpenAIStub({
      ...timing,
      mistakeRate,
      seed: 1,
      hangMs: 2000,
      faultyRepairs: faultyAll,
      faultyProbe: faultyAll,
      faults: faultyAll ? ['cut_off'] : [],
      // Faults drawn by body, not by arrival order: the same run meets the same faults whatever the timing.
      drawsByBody: mistakeRate > 0,
    }).start(),
  );
  const town = await openTown({
    rate: 6000,
    clockPolicy: 'wait',
    conversationMode: mode,
    // A batching server writes a day's actions (700–1,400 tokens) in 15–30 s at a full batch: the default timeout.
    llm: { baseURL: stub.url, apiKey: 'bench', model: 'stub-model', concurrency: CONCURRENCY, timeoutMs: latency === 'realistic' ? 60_000 : 30_000 },
  });
  const end = town.gameMs + GAME_MS_PER_DAY;
  const openedCalls = lastCallId(town);
  const started = performance.now();
  let last = started;
  let peak = 0;
  let inFlightSum = 0;
  let samples = 0;
  while (town.gameMs < end || town.runtime.inFlight > 0) {
    await new Promise((r) => setTimeout(r, 50));
    const now = performance.now();
    if (town.gameMs < end) town.loop.tick(now - last);
    else town.loop.tick(0);
    last = now;
    const inFlight = town.stack?.scheduler.inFlight ?? 0;
    peak = Math.max(peak, inFlight);
    inFlightSum += inFlight;
    samples++;
  }
  const wallS = (performance.now() - started) / 1000;
  const calls = town.db.summariseCalls();
  const batch = stub.batchFigures;
  const bound = batch ? batch.fullBatchBoundMs / 1000 : (stub.stats.requests * LATENCY_MS) / 1000 / CONCURRENCY;
  out[key('calls_per_agent_day')] = calls.calls / AGENTS;
  out[key('tokens_per_agent_day')] = (calls.promptTokens + calls.completionTokens) / AGENTS;
  out[key('wall_s')] = wallS;
  out[key('bound_s')] = bound;
  out[key('efficiency')] = bound / wallS;
  out[key('peak_in_flight')] = peak;
  out[key('mean_in_flight')] = inFlightSum / Math.max(1, samples);
  out[key('conversations')] = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000).filter((e) => e.kind === 'conversation.start').length;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`${prefix}.calls_per_agent_day.${purpose}${suffix}`] = p.calls / AGENTS;
  for (const [purpose, p] of Object.entries(calls.byPurpose)) out[`${prefix}.tokens_per_agent_day.${purpose}${suffix}`] = p.tokens / AGENTS;
  const latencies = (town.db.db.prepare(`SELECT latency_ms AS ms FROM llm_calls WHERE cached = 0 ORDER BY latency_ms`).all() as Array<{ ms: number }>).map(
    (r) => r.ms,
  );
  out[key('latency_p50_ms')] = percentile(latencies, 0.5);
  out[key('latency_p99_ms')] = percentile(latencies, 0.99);
  out[key('completion_tokens_per_call')] = calls.completionTokens / Math.max(1, calls.calls);
  if (batch) {
    out[key('stub_queued_share')] = batch.queued / Math.max(1, batch.requests);
    out[key('stub_most_running')] = batch.mostRunning;
  }
  lastDayWork = serverWork(town, VLLM_8B_A100, AGENTS, end - GAME_MS_PER_DAY, openedCalls);
  if (mistakeRate > 0) {
    // What the faulty double cost: asks that fell back, requests per ask (repairs, longer budgets, transport
    // retries, re-sent forms; the probe's own requests aside), repairs, replies that named what is not in town.
    const mind = town.mind as LlmMind;
    const tallies = [...mind.tally.values()];
    const asks = tallies.reduce((s, t) => s + t.asks, 0);
    const fallbacks = [...mind.fallbacks.values()].reduce((s, n) => s + n, 0);
    const tag = `faulty_${Math.round(mistakeRate * 100)}${faultyRepairs ? '' : '_clean_repairs'}`;
    out[`llm.fallback_share.${tag}`] = fallbacks / Math.max(1, asks);
    out[`llm.requests_per_ask.${tag}`] = (stub.stats.requests - (stub.stats.bySchema.probe_reply ?? 0)) / Math.max(1, asks);
    out[`llm.repairs_per_agent_day.${tag}`] = tallies.reduce((s, t) => s + t.repaired, 0) / AGENTS;
    out[`llm.decomposed_share.${tag}`] = mind.dayPlans.decomposed / Math.max(1, mind.dayPlans.asked);
    if (faultyRepairs) out['llm.semantic_mends_per_agent_day'] = tallies.reduce((s, t) => s + t.semanticMends, 0) / AGENTS;
  }
  await town.close();
  await stub.close();
  return out;
}

/** The server work (ms of a full batch's time, as the stub's bound counts it) of each answered call, by game time. */
interface WorkCurve {
  startGameMs: number;
  agents: number;
  /** [game ms since the start, work ms], in game order. */
  calls: Array<[number, number]>;
}

/** The last LLM day's work curve (for the 1,000-agent extrapolation). */
let lastDayWork: WorkCurve | null = null;

/** The id of the last llm_calls row: the calls a world makes while it opens (importance of seeded memories) come before. */
function lastCallId(town: Town): number {
  return (town.db.db.prepare('SELECT coalesce(max(id), 0) FROM llm_calls').pluck().get() as number) ?? 0;
}

function serverWork(town: Town, model: LatencyModel, agents: number, start: number, afterId: number): WorkCurve {
  const rows = town.db.db
    .prepare(
      `SELECT game_ms AS gameMs, prompt_tokens AS p, completion_tokens AS c FROM llm_calls WHERE outcome = 'ok' AND cached = 0 AND id > ? ORDER BY game_ms`,
    )
    .all(afterId) as Array<{ gameMs: number | null; p: number; c: number }>;
  const d = perTokenMs(model, model.slots);
  return {
    startGameMs: start,
    agents,
    calls: rows.map((r) => [(r.gameMs ?? start) - start, (model.firstTokenMs + r.p * model.prefillMsPerToken + r.c * d) / model.slots]),
  };
}

const BIG_TOWN = 1000;
/** Wall time of the measured stretch of the 1,000-agent day: from midnight, once the world is open. */
const STRETCH_WALL_S = 240;

/**
 * The generated 1,000-agent town on `endpoints` batching stubs (Llama-3.1-8B on an A100 under vLLM each, 32 calls in
 * flight per endpoint), CLOCK_POLICY=wait, from midnight for STRETCH_WALL_S of wall time after the world is open: the
 * night's planning (every agent's plan and the decomposition of its day, the longest replies of the day) and what
 * follows. A game day's wall time is then the day's server work (the 25-agent day's per agent, × 1,000) over the
 * server work the stretch got done per second. That holds while the endpoints are the bottleneck, which
 * `stub_busy_share` (work done ÷ what the endpoints could do with every slot full) shows.
 */
async function benchBigTownEndpoints(endpoints: number, day: WorkCurve): Promise<Record<string, number>> {
  const tag = `agents_${BIG_TOWN}_endpoints_${endpoints}`;
  const stubs = await Promise.all(Array.from({ length: endpoints }, (_, i) => new OpenAIStub({ latencyModel: VLLM_8B_A100, seed: i + 1 }).start()));
  stubs.forEach((s) => installTownResponders(s));
  const { mapFile, personasDir } = generatedTown(BIG_TOWN);
  const opened = performance.now();
  const town = await openTown(
    {
      mapFile,
      rate: 6000,
      clockPolicy: 'wait',
      conversationMode: 'turns',
      llm: {
        apiKey: 'bench',
        model: 'stub-model',
        timeoutMs: 60_000,
        endpoints: stubs.map((s) => ({ baseURL: s.url, concurrency: CONCURRENCY })),
      },
    },
    personasDir,
  );
  const openS = (performance.now() - opened) / 1000;
  const start = town.gameMs;
  const openedCalls = lastCallId(town);
  const started = performance.now();
  let last = started;
  let next = 0;
  while (performance.now() - started < STRETCH_WALL_S * 1000) {
    await new Promise((r) => setTimeout(r, 50));
    const now = performance.now();
    town.loop.tick(now - last);
    last = now;
    if (now - started >= next) {
      next += 30_000;
      console.log(`${tag}: ${Math.round((now - started) / 1000)} s, ${formatGameTime(town.gameMs)}, ${town.stack?.scheduler.inFlight ?? 0} in flight`);
    }
  }
  const wallS = (performance.now() - started) / 1000;
  const work = serverWork(town, VLLM_8B_A100, BIG_TOWN, start, openedCalls);
  const workMs = work.calls.reduce((s, [, w]) => s + w, 0);
  const dayWorkMs = (day.calls.reduce((s, [, w]) => s + w, 0) / day.agents) * BIG_TOWN;
  const reached = town.gameMs - start;
  const dayPerAgentSoFar = day.calls.filter(([t]) => t < reached).reduce((s, [, w]) => s + w, 0) / day.agents;
  const out: Record<string, number> = {};
  out[`llm.game_days_per_hour.${tag}`] = (3600 * workMs) / dayWorkMs / wallS;
  out[`llm.stretch_wall_s.${tag}`] = wallS;
  out[`llm.stretch_game_hours.${tag}`] = reached / GAME_MS_PER_HOUR;
  out[`llm.stretch_calls.${tag}`] = work.calls.length;
  out[`llm.stretch_calls_per_s.${tag}`] = work.calls.length / wallS;
  // Work done over what the endpoints could do with every slot full: near 1 when they are the bottleneck.
  out[`llm.stretch_stub_busy_share.${tag}`] = workMs / 1000 / endpoints / wallS;
  // The big town's server work per agent up to the game time reached, over the 25-agent day's to the same time.
  out[`llm.stretch_work_per_agent_ratio.${tag}`] = workMs / BIG_TOWN / Math.max(1e-9, dayPerAgentSoFar);
  out[`llm.day_work_s.${tag}`] = dayWorkMs / 1000;
  out[`llm.open_s.${tag}`] = openS;
  const figures = town.stack?.endpoints?.() ?? [];
  out[`llm.stretch_calls_max_over_min.${tag}`] = Math.max(...figures.map((f) => f.calls)) / Math.max(1, Math.min(...figures.map((f) => f.calls)));
  await town.close();
  await Promise.all(stubs.map((s) => s.close()));
  return out;
}

/** Four batching endpoints against one (the control) for the 1,000-agent town, after the 25-agent day that sets the extrapolation. */
export async function benchEndpoints(): Promise<Record<string, number>> {
  const out = await benchLlmDay('turns', 'cognition', 0, 'realistic');
  const day = lastDayWork!;
  Object.assign(out, await benchBigTownEndpoints(4, day));
  Object.assign(out, await benchBigTownEndpoints(1, day));
  return out;
}

/** The shipped town on the offline mind, 13 Feb 06:00 to the next noon, read back for its cognition, then interviewed. */
async function benchOfflineDay(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const town = await openTown({ startTime: '2026-02-13T06:00' }, 'personas');
  const start = town.gameMs;
  await town.loop.runLockstep(start + 30 * GAME_MS_PER_HOUR, 10_000);
  town.log.flush();
  const m = measureCognition(town.db);
  const day1 = dayIndex(start);
  out['offline_day.own_actions_min_per_agent'] = Math.min(...m.agents.map((a) => a.ownActions));
  out['offline_day.statuses_changed'] = m.agents.filter((a) => a.statusByDay[day1 + 1] !== undefined && a.statusByDay[day1 + 1] !== a.statusByDay[day1]).length;
  out['offline_day.agents'] = m.agents.length;
  for (const [basis, n] of Object.entries(m.conversations)) out[`offline_day.conversations.${basis}`] = n;
  out['offline_day.invitation_replans'] = m.invitationReplans.length;
  out['offline_day.planning_thoughts'] = m.planningThoughts;
  out['offline_day.lines'] = m.lines;
  out['offline_day.distinct_line_share'] = m.distinctLines / Math.max(1, m.lines);
  const report = await interviewTown(town);
  for (const [category, rate] of Object.entries(report.passRate)) out[`interview.pass_rate.${category}`] = rate;
  out['interview.pass_rate'] = report.overall;
  // The same grader on answers that must fail: another agent's records, shuffled records, a generic sentence.
  out['interview.control_pass_rate'] = report.controlPassRate;
  for (const [control, c] of Object.entries(report.controls)) out[`interview.control_pass_rate.${control}`] = c.overall;
  await town.close();
  return out;
}

/**
 * The interview grader over seeds (issue 42 §4): the shipped town on the offline mind from 13 Feb 06:00 through the next
 * noon, one world per seed, every resident asked the five categories' questions and graded against its own records, and
 * the same grader on each control (another agent's records, shuffled records, a generic answer, the answer negated,
 * contradicted, or as a salad of its own words), seeded by the world's seed. The mean and the worst seed of each.
 */
export async function benchInterviewSeeds(seeds: number[]): Promise<Record<string, number>> {
  const real: number[] = [];
  const controls = new Map<string, number[]>();
  for (const seed of seeds) {
    const town = await openTown({ startTime: '2026-02-13T06:00', seed }, 'personas');
    await town.loop.runLockstep(town.gameMs + 30 * GAME_MS_PER_HOUR, 10_000);
    town.log.flush();
    const report = await interviewTown(town, seed);
    real.push(report.overall);
    for (const [control, c] of Object.entries(report.controls)) controls.set(control, [...(controls.get(control) ?? []), c.overall]);
    await town.close();
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out: Record<string, number> = {
    'interview.seeds.count': seeds.length,
    'interview.seeds.pass_rate': mean(real),
    'interview.seeds.pass_rate_min': Math.min(...real),
  };
  for (const [control, rates] of controls) {
    out[`interview.seeds.control_pass_rate.${control}`] = mean(rates);
    out[`interview.seeds.control_pass_rate_max.${control}`] = Math.max(...rates);
  }
  return out;
}

/**
 * The LLM path against real-model mistakes: the clean stub day, then the same day with 20% of replies faulty
 * (repairs and probe included), and with 20% of first replies faulty and repairs clean (the earlier measure).
 */
export async function benchLlm(): Promise<Record<string, number>> {
  return {
    ...(await benchLlmDay('turns', 'cognition')),
    ...(await benchLlmDay('turns', 'llm.faulty_20', 0.2)),
    ...(await benchLlmDay('turns', 'llm.faulty_20_clean_repairs', 0.2, 'fixed', false)),
  };
}

export async function benchCognition(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};

  // The offline mind, headless: game days per second of wall time.
  const offline = await openTown({});
  const t0 = performance.now();
  await offline.loop.runLockstep(offline.gameMs + GAME_MS_PER_DAY, 10_000);
  out['offline.game_days_per_s.agents_25'] = 1000 / (performance.now() - t0);
  await offline.close();
  Object.assign(out, await benchOfflineDay());
  Object.assign(out, await benchLlmDay('turns', 'cognition'));
  Object.assign(out, await benchLlmDay('whole', 'cognition.whole'));
  Object.assign(out, await benchLlmDay('turns', 'cognition', 0, 'realistic'));
  Object.assign(out, await benchLlmDay('whole', 'cognition.whole', 0, 'realistic'));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/cognition.ts realistic`: only the two days against the batching stub.
  // `npx tsx bench/cognition.ts endpoints`: the 1,000-agent town on four batching endpoints and on one.
  // `npx tsx bench/cognition.ts llm`: the clean day and the two faulty days (benchLlm).
  const only = process.argv[2];
  const run =
    only === 'llm'
      ? benchLlm
      : only === 'realistic'
        ? async () => ({ ...(await benchLlmDay('turns', 'cognition', 0, 'realistic')), ...(await benchLlmDay('whole', 'cognition.whole', 0, 'realistic')) })
        : only === 'endpoints'
          ? benchEndpoints
          : benchCognition;
  run().then((r) => console.table(r));
}
