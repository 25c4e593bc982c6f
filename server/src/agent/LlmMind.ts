// The LLM mind: each decision is one ChatModel call with a purpose and a JSON Schema; the reply is
// validated with zod, re-asked once when invalid, and otherwise replaced by the offline mind's answer
// for that purpose. Every fallback is counted and reported; an error text is never used as an answer.
import { z } from 'zod';
import type { ChatMessage, ChatModel, JsonSchema, Purpose } from '../llm/types';
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { minuteOfWakingDay, parseClock, wakingDay } from '../world/clockText';
import { findActionIndex } from '../protocol/plan';
import { formatClock } from '../protocol/time';
import type { Observation } from '../sim/types';
import type { DayPlan, PlannedAction } from '../protocol/plan';
import type { ConversationLine, ConversationSummary, Insight, Mind, MindContext, Reaction, TurnInput, TurnOutput } from './mind';
import { OfflineMind, planFromRoutine } from './offlineMind';
import * as P from './prompts';

export interface FallbackReport {
  purpose: Purpose;
  agentId: string | null;
  reason: string;
}

export interface LlmMindOptions {
  model: ChatModel;
  /** What the UI shows, e.g. "llm: gpt-4o-mini @ api.openai.com". */
  label: string;
  onFallback?(report: FallbackReport): void;
  /** Attempts per call before the fallback: the first ask, then re-asks after an invalid reply. */
  attempts?: number;
}

const schemaCache = new WeakMap<z.ZodType, JsonSchema>();
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let s = schemaCache.get(schema);
  if (!s) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as JsonSchema;
    s = rest;
    schemaCache.set(schema, s);
  }
  return s;
}

export class LlmMind implements Mind {
  readonly kind = 'llm' as const;
  readonly label: string;
  readonly fallbacks = new Map<Purpose, number>();
  private readonly offline = new OfflineMind();

  constructor(private readonly options: LlmMindOptions) {
    this.label = options.label;
  }

  /** One validated answer, or null after the attempts (the caller then falls back and it is counted). */
  private async ask<S extends z.ZodType>(purpose: Purpose, agentId: string | null, messages: ChatMessage[], schema: S, maxTokens: number, schemaName = `${purpose}_reply`): Promise<z.infer<S> | null> {
    const attempts = this.options.attempts ?? 2;
    let reason = '';
    for (let i = 0; i < attempts; i++) {
      try {
        const reply = await this.options.model.complete({ purpose, agentId, messages, schemaName, schema: jsonSchemaOf(schema), maxTokens, temperature: 0 });
        const parsed = schema.safeParse(reply.json);
        if (parsed.success) return parsed.data;
        reason = `invalid reply: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`;
      } catch (error) {
        reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
    }
    this.fallbacks.set(purpose, (this.fallbacks.get(purpose) ?? 0) + 1);
    this.options.onFallback?.({ purpose, agentId, reason });
    return null;
  }

  async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    if (descriptions.length === 0) return [];
    const p = ctx.agent.persona;
    const reply = await this.ask('importance', p.id, P.importancePrompt(p, descriptions), P.ImportanceReply, 16 + descriptions.length * 4);
    if (reply && reply.ratings.length === descriptions.length) return reply.ratings;
    if (reply) this.reportMismatch('importance', p.id, `${reply.ratings.length} ratings for ${descriptions.length} memories`);
    return this.offline.rateImportance(ctx, descriptions);
  }

  async planDay(ctx: MindContext, day: number, memories: Memory[]): Promise<DayPlan> {
    const p = ctx.agent.persona;
    // The offline plan is the fallback for any level that fails, and fills any gap the LLM leaves.
    const base = planFromRoutine(p, ctx.map, ctx.seed, day, memories);
    const dayLabel = P.nowLabel(day * 86_400_000).replace(/, \d\d:\d\d$/, '');
    const plan = await this.ask('plan', p.id, P.planPrompt(p, dayLabel, P.routineText(p), memories), P.PlanReply, 300);
    if (!plan) return base;
    const arenas = ctx.map.arenas.map((a) => a.address);
    const blocksReply = await this.ask('decompose', p.id, P.hourBlocksPrompt(p, plan.broadStrokes, arenas), P.HourBlocksReply, 600, 'decompose_blocks');
    const blocks = (blocksReply?.blocks ?? []).filter((b) => ctx.map.arenasByAddress.has(b.place) && isClock(b.start));
    if (blocks.length === 0) return { ...base, broadStrokes: plan.broadStrokes };
    const objectsByPlace = Object.fromEntries(blocks.map((b) => [b.place, ctx.map.arenasByAddress.get(b.place)!.objects.map((o) => o.name)]));
    const actionsReply = await this.ask('decompose', p.id, P.actionsPrompt(p, blocks, objectsByPlace), P.ActionsReply, 2500, 'decompose_actions');
    const waking = wakingDay(p.wakeAt, p.sleepAt); // sleepMinute > 1440 for a bedtime after midnight
    const hourBlocks = toHourBlocks(blocks, waking.wakeMinute, waking.sleepMinute);
    if (!actionsReply) return { ...base, broadStrokes: plan.broadStrokes, hourBlocks };
    const actions = normaliseActions(actionsReply.actions, ctx.map, waking.wakeMinute, waking.sleepMinute, base.actions);
    return { day, broadStrokes: plan.broadStrokes, hourBlocks, actions };
  }

  async react(ctx: MindContext, observations: Observation[], memories: Memory[]): Promise<Reaction | null> {
    const p = ctx.agent.persona;
    const places = ctx.map.arenas.map((a) => a.address);
    const reply = await this.ask('react', p.id, P.reactPrompt(p, P.nowLabel(ctx.gameMs), ctx.agent.currentAction, observations.map((o) => o.description), memories, places), P.ReactReply, 200);
    if (!reply) return this.offline.react(ctx, observations);
    if (!reply.react || !reply.activity) return null;
    const address = resolveAddress(reply.activity.place, ctx.map) ?? ctx.agent.currentPlace;
    const minute = Math.floor((ctx.gameMs % 86_400_000) / 60_000);
    const until = minute + reply.activity.minutes;
    const rest = (ctx.agent.plan?.actions ?? [])
      .filter((a) => a.startMinute + a.durationMinutes > until)
      .map((a) => (a.startMinute < until ? { ...a, startMinute: until, durationMinutes: a.startMinute + a.durationMinutes - until } : a));
    return {
      reason: reply.reason || observations[0]?.description || 'a reaction',
      actions: [{ startMinute: minute, durationMinutes: reply.activity.minutes, description: reply.activity.description, emoji: reply.activity.emoji, address }, ...rest],
    };
  }

  async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
    const p = ctx.agent.persona;
    const seen = new Set(input.memories.map((m) => m.id));
    const memories = [...input.memories, ...input.news.filter((m) => !seen.has(m.id))];
    const reply = await this.ask(
      'converse',
      p.id,
      P.turnPrompt(p, input.partner, { nowLabel: P.nowLabel(ctx.gameMs), place: ctx.agent.currentPlace, currentAction: ctx.agent.currentAction, relationship: input.relationship, memories, history: input.history, lastTurn: input.turn >= input.maxTurns - 1 }),
      P.TurnReply,
      120,
    );
    if (!reply) return this.offline.converseTurn(ctx, input);
    return { text: reply.line, end: reply.end || input.turn >= input.maxTurns - 1 };
  }

  async summariseConversation(ctx: MindContext, participants: [Persona, Persona], lines: ConversationLine[]): Promise<ConversationSummary> {
    const [a, b] = participants;
    const reply = await this.ask('summarise', a.id, P.summaryPrompt(a, b, lines), P.SummaryReply, 300);
    if (!reply) return this.offline.summariseConversation(ctx, participants, lines);
    return { summary: reply.summary, learned: { [a.id]: reply.learnedByFirst, [b.id]: reply.learnedBySecond } };
  }

  async reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]> {
    const p = ctx.agent.persona;
    const reply = await this.ask('reflect', p.id, P.questionsPrompt(p, recent), P.QuestionsReply, 200, 'reflect_questions');
    return reply ? reply.questions : this.offline.reflectQuestions(ctx, recent);
  }

  async reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]> {
    const p = ctx.agent.persona;
    const reply = await this.ask('reflect', p.id, P.insightsPrompt(p, question, memories), P.InsightsReply, 400, 'reflect_insights');
    if (!reply) return this.offline.reflectInsights(ctx, question, memories);
    // Evidence comes back as list numbers; an insight citing a number not in the list is dropped, not trusted.
    return reply.insights
      .filter((i) => i.evidence.every((n) => n >= 1 && n <= memories.length))
      .map((i) => ({ text: i.insight, evidence: [...new Set(i.evidence.map((n) => memories[n - 1].id))] }));
  }

  async interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string> {
    const p = ctx.agent.persona;
    const reply = await this.ask('interview', p.id, P.interviewPrompt(p, P.nowLabel(ctx.gameMs), ctx.agent.currentAction, question, memories), P.InterviewReply, 300);
    return reply ? reply.answer : this.offline.interview(ctx, question, memories);
  }

  private reportMismatch(purpose: Purpose, agentId: string, reason: string): void {
    this.fallbacks.set(purpose, (this.fallbacks.get(purpose) ?? 0) + 1);
    this.options.onFallback?.({ purpose, agentId, reason });
  }
}

function isClock(text: string): boolean {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60;
}

/** "Hobbs Cafe: cafe" or "Hobbs Cafe: cafe: counter" as written by a model, if it names a real place. */
export function resolveAddress(place: string, map: TownMap): string | null {
  const clean = place.trim().replace(/\s*:\s*/g, ': ');
  if (map.objectsByAddress.has(clean) || map.arenasByAddress.has(clean)) return clean;
  const lower = clean.toLowerCase();
  for (const key of [...map.objectsByAddress.keys(), ...map.arenasByAddress.keys()]) if (key.toLowerCase() === lower) return key;
  return null;
}

function toHourBlocks(blocks: Array<{ start: string; activity: string }>, wakeMinute: number, sleepMinute: number) {
  const sorted = blocks.map((b) => ({ startMinute: minuteOfWakingDay(parseClock(b.start.padStart(5, '0')), wakeMinute), activity: b.activity })).sort((x, y) => x.startMinute - y.startMinute);
  return sorted.map((b, i) => ({ ...b, durationMinutes: Math.max(0, (sorted[i + 1]?.startMinute ?? sleepMinute) - b.startMinute) }));
}

/**
 * Makes a model's actions a valid plan: real places only, sorted, inside waking hours, no overlaps;
 * the minutes it leaves uncovered are taken from the offline plan.
 */
export function normaliseActions(
  raw: Array<{ start: string; minutes: number; description: string; emoji: string; place: string }>,
  map: TownMap,
  wakeMinute: number,
  sleepMinute: number,
  base: readonly PlannedAction[],
): PlannedAction[] {
  const valid = raw
    .filter((a) => isClock(a.start))
    .map((a) => ({ startMinute: minuteOfWakingDay(parseClock(a.start.padStart(5, '0')), wakeMinute), durationMinutes: a.minutes, description: a.description.trim(), emoji: a.emoji, address: resolveAddress(a.place, map) }))
    .filter((a): a is PlannedAction => a.address !== null && a.startMinute >= wakeMinute && a.startMinute < sleepMinute)
    .sort((a, b) => a.startMinute - b.startMinute);
  const out: PlannedAction[] = [];
  let cursor = wakeMinute;
  const fill = (from: number, to: number) => {
    for (let m = from; m < to; ) {
      const i = findActionIndex(base, m);
      const b = i >= 0 ? base[i] : null;
      const end = b ? Math.min(to, b.startMinute + b.durationMinutes) : to;
      if (b) out.push({ ...b, startMinute: m, durationMinutes: end - m });
      m = Math.max(end, m + 1);
    }
  };
  valid.forEach((a, i) => {
    if (a.startMinute < cursor) return; // starts inside the previous one
    if (a.startMinute > cursor) fill(cursor, a.startMinute);
    const next = valid.slice(i + 1).find((b) => b.startMinute > a.startMinute);
    const end = Math.min(a.startMinute + a.durationMinutes, next ? next.startMinute : sleepMinute, sleepMinute);
    out.push({ ...a, durationMinutes: end - a.startMinute });
    cursor = end;
  });
  if (cursor < sleepMinute) fill(cursor, sleepMinute);
  return out.filter((a) => a.durationMinutes > 0);
}

export { formatClock };
