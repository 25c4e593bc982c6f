// `npm run llm:check -- [--base-url URL] [--model NAME] [--api-key KEY] [--format auto|json_schema|json_object|none]
//   [--model-file FILE.gguf [--grammar on|off]] [--repeat N] [--max-fallback-share S]`: before a long experiment, runs every purpose the town uses a
// few times against the endpoint, with the app's real prompts on a small built-in world (the shipped map,
// the shipped personas, a handful of memories), through the same stack as the town (transport retries,
// tolerant reading, repair turns). Each repeat is another scene (another pair of residents, other
// memories and questions): at temperature 0 the same body says nothing new. Each purpose is asked on its
// own (decompose from fixed broad strokes, whether or not plan passed). It prints a table: purpose, asks,
// valid at once, mended, repaired, bigger-budget retries, fell back, the mind's requests, the HTTP
// requests that reached the endpoint (transport retries included), latency, tokens, and the
// response-format mode found with the probe's own requests. Exits 1 when any purpose fell back on more
// than the set share of its asks (default 0.2). Defaults come from the same settings as the server.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { OpenAIChatModel, type ResponseFormatSetting } from '../server/src/llm/OpenAIChatModel';
import { RetryingChatModel } from '../server/src/llm/RetryingChatModel';
import { LlmMind } from '../server/src/agent/LlmMind';
import { loadTownMap } from '../server/src/world/map';
import { loadPersonas, type Persona } from '../server/src/world/persona';
import type { MindContext, ConversationLine, Speaker } from '../server/src/agent/mind';
import type { Memory, MemoryId } from '../server/src/store/types';
import type { AgentId, TownMap } from '../server/src/world/types';
import { planFromRoutine } from '../server/src/agent/offlinePlanning';
import type { ChatModel, ChatRequest, ChatResponse, Purpose } from '../server/src/llm/types';
import { PURPOSES } from '../server/src/llm/types';
import { EmbeddedChatModel } from '../server/src/llm/embedded';

export interface CheckOptions {
  /** The endpoint; unused with modelFile. */
  baseURL: string;
  /** A GGUF file run in this process instead of an endpoint (the embedded adapter), with its grammar on or off. */
  modelFile?: string;
  grammar?: boolean;
  apiKey?: string;
  model: string;
  responseFormat?: ResponseFormatSetting;
  timeoutMs?: number;
  /** Times each purpose's prompts are asked (default 2). */
  repeat?: number;
  maxRetries?: number;
  /** Injected for tests: transport retry waits. */
  sleep?: (ms: number) => Promise<void>;
}

export interface CheckRow {
  purpose: Purpose;
  asks: number;
  valid: number;
  mended: number;
  repaired: number;
  fellBack: number;
  /** Asked again with a bigger budget after a cut-off reply, or in another form after transport failures. */
  longer: number;
  /** Requests the mind made (first replies, repairs, bigger budgets, other forms). */
  requests: number;
  /** HTTP requests that reached the endpoint for them, transport retries included. */
  httpRequests: number;
  meanLatencyMs: number;
  tokens: number;
}

export interface CheckReport {
  mode: string;
  /** HTTP requests of the response-format probe (not any purpose's). */
  probeRequests: number;
  rows: CheckRow[];
}

/** Sums HTTP requests, latency and tokens per purpose over every request that reached the endpoint (below the retries). */
class Meter implements ChatModel {
  readonly byPurpose = new Map<Purpose, { latencyMs: number; replies: number; tokens: number }>();
  constructor(private readonly inner: ChatModel) {}
  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const t0 = performance.now();
    const m = this.byPurpose.get(request.purpose) ?? { latencyMs: 0, replies: 0, tokens: 0 };
    this.byPurpose.set(request.purpose, m);
    try {
      const r = await this.inner.complete(request, signal);
      m.tokens += r.usage.promptTokens + r.usage.completionTokens;
      return r;
    } finally {
      m.latencyMs += performance.now() - t0;
      m.replies++;
    }
  }
}

function memoriesOf(agent: Persona, texts: string[], startMs: number): Memory[] {
  return texts.map((description, i) => ({
    id: (i + 1) as MemoryId,
    agentId: agent.id as AgentId,
    kind: 'observation',
    description,
    createdGameMs: startMs - (texts.length - i) * 600_000,
    lastAccessedGameMs: startMs,
    importance: 3 + (i % 5),
    triple: null,
    evidenceIds: [],
  }));
}

/** Runs every purpose `repeat` times on the built-in world; the tallies say how each went. */
export async function runLlmCheck(o: CheckOptions): Promise<CheckReport> {
  let mode: string | null = null;
  const embedded = o.modelFile
    ? await EmbeddedChatModel.open({
        file: o.modelFile,
        threads: 0,
        contextSize: 4096,
        sequences: 1,
        gpuLayers: 0,
        grammar: o.grammar ?? true,
        timeoutMs: o.timeoutMs ?? 600_000,
      })
    : null;
  const http = embedded
    ? null
    : new OpenAIChatModel({
        baseURL: o.baseURL,
        apiKey: o.apiKey,
        models: { default: o.model },
        responseFormat: o.responseFormat ?? 'auto',
        timeoutMs: o.timeoutMs ?? 60_000,
        onProbe: (m) => (mode = m),
      });
  const adapter: ChatModel = embedded ?? http!;
  const meter = new Meter(adapter);
  const mind = new LlmMind({ model: new RetryingChatModel(meter, { maxRetries: o.maxRetries ?? 3, sleep: o.sleep }), label: `llm: ${o.model}` });
  const map = loadTownMap('maps/town.tmj');
  const all = loadPersonas('personas', map, () => {});
  const names = new Map(all.map((p) => [p.id as string, p.name]));
  // The first scene is Isabella and Claire; each repeat after it another pair, another hour and other questions.
  const first = Math.max(
    0,
    all.findIndex((p) => p.id === 'isabella'),
  );
  const second = Math.max(
    0,
    all.findIndex((p) => p.id === 'claire'),
  );
  const order = [all[first], all[second], ...all.filter((_, i) => i !== first && i !== second)];
  for (let i = 0; i < (o.repeat ?? 2); i++) {
    const a = order[(2 * i) % order.length];
    const b = order[(2 * i + 1) % order.length] === a ? order[(2 * i + 2) % order.length] : order[(2 * i + 1) % order.length];
    await runScene(mind, map, names, a, b, i);
  }
  const rows = PURPOSES.map((purpose) => {
    const t = mind.tallyOf(purpose);
    const m = meter.byPurpose.get(purpose) ?? { latencyMs: 0, replies: 0, tokens: 0 };
    return {
      purpose,
      asks: t.asks,
      valid: t.valid,
      mended: t.mended,
      repaired: t.repaired,
      longer: t.longer + t.reformed,
      fellBack: t.fellBack,
      requests: t.requests,
      httpRequests: m.replies,
      meanLatencyMs: m.replies ? Math.round(m.latencyMs / m.replies) : 0,
      tokens: m.tokens,
    };
  });
  await embedded?.close();
  return { mode: mode ?? embedded?.responseFormat ?? http?.responseFormat ?? 'unknown', probeRequests: http?.probeRequests ?? 0, rows };
}

const SCENE_QUESTIONS = [
  'What are you looking forward to this week?',
  'Who have you talked to lately, and about what?',
  'What is on your mind today?',
  'What would you change about your routine?',
];
const FIXED_BROAD_STROKES = ['wake up and get ready', 'work for most of the day', 'have lunch', 'take a walk in the park', 'relax at home in the evening'];

/** Every purpose once, on a scene of two residents: the `scene`th repeat (another hour, memories and question). */
async function runScene(mind: LlmMind, map: TownMap, names: Map<string, string>, a: Persona, b: Persona, scene: number): Promise<void> {
  const startMs = Date.UTC(2026, 1, 13, 10 + (scene % 8), 0);
  const day = Math.floor(startMs / 86_400_000);
  const ctxOf = (p: Persona, other: Persona): MindContext => ({
    agent: { persona: p, currentAction: 'working', currentPlace: p.workplace ?? p.home, plan: null },
    map,
    gameMs: startMs,
    seed: 1,
    names,
    relationships: new Map([[other.id as string, p.relationships[other.id] ?? 'a neighbour']]),
  });
  const [ca, cb] = [ctxOf(a, b), ctxOf(b, a)];
  const memories = memoriesOf(
    a,
    [
      `${a.name} is planning a Valentine's Day party at Hobbs Cafe on February 14 at 5pm`,
      `${a.name} talked with ${b.name} about the weather`,
      `${a.name} made coffee at the counter`,
      `${b.name} said she is busy at work this week`,
      `${a.name} decorated the cafe`,
    ],
    startMs,
  );
  const observations = memories.slice(0, 3).map((m) => ({ description: m.description, actorId: b.id as AgentId }) as never);
  const lines: ConversationLine[] = [
    { speaker: a.id, speakerName: a.name, text: `Hi ${b.name}! I'm hosting a Valentine's Day party at Hobbs Cafe tomorrow at 5pm. Will you come?` },
    { speaker: b.id, speakerName: b.name, text: 'I would love to! I will be there at 5.' },
  ];
  const company = [{ persona: b, relationship: a.relationships[b.id] ?? null, conversations: 1, lastTalkedGameMs: null, news: memories.slice(0, 1) }];
  const speakers: [Speaker, Speaker] = [
    { ctx: ca, partner: b, relationship: a.relationships[b.id] ?? null, memories, news: memories.slice(0, 1) },
    { ctx: cb, partner: a, relationship: b.relationships[a.id] ?? null, memories: [], news: [] },
  ];
  const runs: Record<Purpose, () => Promise<unknown>> = {
    importance: async () => {
      await mind.rateImportance(
        ca,
        memories.map((m) => m.description),
      );
      await mind.appraise(ca, observations, company);
    },
    plan: () => mind.askDayPlan(ca, day, memories, null),
    // On its own, from fixed broad strokes: a plan that failed does not leave decompose without a verdict.
    decompose: () => mind.decomposeDay(ca, day, FIXED_BROAD_STROKES, planFromRoutine(a, map, 1, day, memories)),
    react: () => mind.react(ca, [{ description: 'Hobbs Cafe is closed today for repairs', actorId: null } as never], memories),
    converse: async () => {
      await mind.converseTurn(ca, { partner: b, relationship: a.relationships[b.id] ?? null, memories, news: [], history: [], turn: 0, maxTurns: 4 });
      await mind.converseWhole(speakers, 4);
    },
    summarise: () => mind.summariseConversation({ contexts: [ca, cb], lines, relationships: [a.relationships[b.id] ?? null, b.relationships[a.id] ?? null] }),
    reflect: async () => {
      const questions = await mind.reflectQuestions(ca, memories);
      await mind.reflectInsights(ca, questions[0] ?? 'What is Isabella busy with?', memories);
    },
    interview: () => mind.interview(ca, SCENE_QUESTIONS[scene % SCENE_QUESTIONS.length], memories),
  };
  for (const purpose of PURPOSES) await runs[purpose]();
}

/** Purposes that fell back on more than `maxShare` of their asks. */
export function failingPurposes(report: CheckReport, maxShare: number): CheckRow[] {
  return report.rows.filter((r) => r.asks > 0 && r.fellBack / r.asks > maxShare);
}

export function formatCheck(report: CheckReport): string {
  const head = ['purpose', 'asks', 'valid at once', 'mended', 'repaired', 'bigger budget', 'fell back', 'requests', 'HTTP requests', 'latency ms', 'tokens'];
  const body = report.rows.map((r) =>
    [r.purpose, r.asks, r.valid, r.mended, r.repaired, r.longer, r.fellBack, r.requests, r.httpRequests, r.meanLatencyMs, r.tokens].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    `response format: ${report.mode} (probe: ${report.probeRequests} HTTP requests)`,
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      format: { type: 'string' },
      repeat: { type: 'string', default: '2' },
      'max-fallback-share': { type: 'string', default: '0.2' },
      'model-file': { type: 'string' },
      grammar: { type: 'string', default: 'on' },
    },
  });
  const config = loadConfig();
  const modelFile = values['model-file'] ?? config.llm.modelFile;
  const baseURL = values['base-url'] ?? config.llm.baseURL ?? '';
  if (!baseURL && !modelFile)
    throw new Error('llm:check: no model; pass --base-url URL (or set OPENAI_BASE_URL), or --model-file FILE.gguf (or LLM_MODEL_FILE)');
  if (!['on', 'off'].includes(values.grammar!)) throw new Error(`llm:check: --grammar must be on or off, not '${values.grammar}'`);
  const format = (values.format ?? config.llm.responseFormat) as ResponseFormatSetting;
  if (!['auto', 'json_schema', 'json_object', 'none'].includes(format))
    throw new Error(`llm:check: --format must be auto, json_schema, json_object or none, not '${format}'`);
  const repeat = Number(values.repeat);
  const maxShare = Number(values['max-fallback-share']);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`llm:check: --repeat must be a whole number ≥ 1, not '${values.repeat}'`);
  if (!(maxShare >= 0 && maxShare <= 1)) throw new Error(`llm:check: --max-fallback-share must be between 0 and 1, not '${values['max-fallback-share']}'`);
  const report = await runLlmCheck({
    baseURL,
    modelFile,
    grammar: values.grammar === 'on',
    apiKey: values['api-key'] ?? config.llm.apiKey,
    model: values.model ?? config.llm.model,
    responseFormat: format,
    timeoutMs: config.llm.timeoutMs,
    repeat,
  });
  console.log(formatCheck(report));
  const failing = failingPurposes(report, maxShare);
  if (failing.length) {
    console.error(`llm:check: ${failing.map((r) => `${r.purpose} fell back on ${r.fellBack} of ${r.asks}`).join(', ')} (more than ${maxShare} of its asks)`);
    process.exit(1);
  }
  console.log(`llm:check: every purpose fell back on at most ${maxShare} of its asks`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  });
}
