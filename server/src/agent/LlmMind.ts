// The LLM mind: each decision is one ChatModel call with a purpose and a JSON Schema. The reply is read
// tolerantly (llm/replyJson.ts), bent toward the schema where the meaning is clear (llm/tolerance.ts),
// validated with zod, and checked against the town (places on the map, speakers present, evidence in
// range). A reply cut off by its token budget is asked again once with a bigger one (cut off again, it is
// a failure); an invalid reply gets up to two repair turns (the model sees its reply, the errors and the
// valid names); an ask whose transport retries were spent goes once more in another form; after that the
// offline mind answers for that purpose. Every fallback, repair and mend is counted per purpose and
// reported; an error text is never used as an answer, and no body is sent twice for one ask.
import { pronounsOf, report } from './grammar';
import { z } from 'zod';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, JsonSchema, Purpose } from '../llm/types';
import { LlmAbortedError, LlmReplyError } from '../llm/errors';
import { mendToSchema } from '../llm/tolerance';
import { describeShape } from '../llm/schemaShape';
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import { minuteOfWakingDay, parseClock, planMomentAt, wakingDay } from '../world/clockText';
import { findActionIndex, fitAction } from '../protocol/plan';
import { formatClock } from '../protocol/time';
import type { Observation } from '../sim/types';
import type { DayPlan, PlannedAction } from '../protocol/plan';
import type {
  Acquaintance,
  Appraisal,
  ConversationLine,
  ConversationSummary,
  InvitationRecord,
  DayPlanning,
  Insight,
  Mind,
  MindContext,
  PlanningThought,
  Reaction,
  Speaker,
  SummaryInput,
  TurnInput,
  TurnOutput,
} from './mind';
import { OfflineMind } from './offlineMind';
import { rateImportanceHeuristically } from './offlineImportance';
import { planFromRoutine } from './offlinePlanning';
import { mentions } from './voice';
import * as P from './prompts';
import { clockGrid, withItemEnums, withLength, withNameOrNull } from './replyShape';

/** A part of the day whose actions one reply holds: blocks are grouped up to this many hours. */
const DECOMPOSE_PART_MINUTES = 5 * 60;
/** An hour block as a model writes it: a start ("HH:MM"), what, and where. */
type HourBlock = { start: string; activity: string; place: string };

/** Hour blocks one reply may hold, and the longest activity or action it may write ("brewing coffee at the counter"). */
const MAX_HOUR_BLOCKS = 12;
const MAX_ACTIVITY_CHARS = 60;
/** A part of the day's actions reply holds at most one action for each this many minutes of its span. */
const ACTION_MINUTES_PER_ITEM = 30;
/** Repair turns one ask may take before it falls back: a small model's repair fails about as often as its first reply. */
const REPAIR_TURNS = 2;

export interface FallbackReport {
  purpose: Purpose;
  agentId: string | null;
  reason: string;
}

/** A reply that needed help and got it: a repair turn, a mend of its content, or a retry with a bigger budget. */
export interface MendReport {
  purpose: Purpose;
  agentId: string | null;
  how: MendKind;
  note: string;
}
export type MendKind = 'repair' | 'mend' | 'longer';

/** What became of one purpose's asks. `requests` counts every call made for them (cache hits too). */
export interface PurposeTally {
  asks: number;
  requests: number;
  /** Valid at once, with no help beyond syntax (prose, fences, thinking blocks are cut away silently). */
  valid: number;
  /** Valid after a repair turn. */
  repaired: number;
  /** Valid once its content was bent (a number clamped, an element dropped, a count padded…). */
  mended: number;
  /** Asked again with a bigger token budget after being cut off. */
  longer: number;
  /** Sent again in another form (bigger budget, schema in the prompt) once transport retries were spent. */
  reformed: number;
  /** Replies that named places, people or evidence not in town: repaired, or used with those elements dropped. */
  semanticMends: number;
  fellBack: number;
  /** Completion tokens of the replies that reached the endpoint, and their count (for the budgets). */
  completionTokens: number;
}

export interface LlmMindOptions {
  model: ChatModel;
  /** What the UI shows, e.g. "llm: gpt-4o-mini @ api.openai.com". */
  label: string;
  onFallback?(report: FallbackReport): void;
  /** Told of each repair turn, content mend and longer retry. */
  onMend?(report: MendReport): void;
}

const schemaCache = new WeakMap<z.ZodType, JsonSchema>();
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let s = schemaCache.get(schema);
  if (!s) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as JsonSchema;
    s = rest;
    schemaCache.set(schema, s);
  }
  return s;
}

export type ReplyCheck<T> = { ok: true; value: T; notes: string[] } | { ok: false; errors: string[] };

/** A parsed reply bent toward the schema (llm/tolerance.ts), then judged by zod; the errors say what is wrong. */
export function checkReply<S extends z.ZodType>(schema: S, json: unknown): ReplyCheck<z.infer<S>> {
  const mended = mendToSchema(json, jsonSchemaOf(schema));
  const parsed = schema.safeParse(mended ? mended.value : json);
  if (parsed.success) return { ok: true, value: parsed.data, notes: mended?.notes ?? [] };
  const raw = mended ? schema.safeParse(json) : parsed;
  const issues = (raw.success ? parsed : raw).error?.issues ?? [];
  return { ok: false, errors: issues.slice(0, 6).map((i) => `${['$', ...i.path].join('.')}: ${i.message}`) };
}

/** The reply schemas by the name each request carries: how a cached reply is checked again when a world opens. */
export const REPLY_SCHEMAS: Record<string, z.ZodType> = {
  importance_reply: P.ImportanceReply,
  appraise_reply: P.AppraiseReply,
  plan_reply: P.PlanReply,
  decompose_blocks: P.HourBlocksReply,
  decompose_actions: P.ActionsReply,
  react_reply: P.ReactReply,
  converse_reply: P.TurnReply,
  converse_whole: P.ConversationReply,
  summarise_reply: P.SummaryReply,
  reflect_questions: P.QuestionsReply,
  reflect_insights: P.InsightsReply,
  interview_reply: P.InterviewReply,
};

/** `accept` for a cached reply of that schema name, or undefined for a name the mind does not use. */
export function acceptorFor(schemaName: string): ((json: unknown) => boolean) | undefined {
  const schema = REPLY_SCHEMAS[schemaName];
  return schema ? (json) => checkReply(schema, json).ok : undefined;
}

/**
 * Completion-token budgets per schema: the caller's floor (at least the schema's shape written out, at
 * 2 characters a token: a pretty-printed reply with one entry per list), raised to half again the
 * longest reply seen for that schema, plus the longest thinking seen when the model thinks aloud (4
 * characters a token).
 */
export class TokenBudgets {
  private readonly seen = new Map<string, { completion: number; thinking: number }>();

  observe(schemaName: string, completionTokens: number, thinkingChars: number): void {
    const s = this.seen.get(schemaName) ?? { completion: 0, thinking: 0 };
    s.completion = Math.max(s.completion, completionTokens);
    s.thinking = Math.max(s.thinking, Math.ceil(thinkingChars / 4));
    this.seen.set(schemaName, s);
  }

  budgetFor(schemaName: string, callerFloor: number, schema?: JsonSchema): number {
    const floor = Math.max(callerFloor, schema ? Math.ceil(describeShape(schema).length / 2) : 0);
    const s = this.seen.get(schemaName);
    if (!s) return floor;
    return Math.max(floor, Math.ceil(s.completion * 1.5)) + Math.ceil(s.thinking * 1.25);
  }
}

/** The budget after a reply was cut off: at least double, and room for the thinking the cut reply showed. */
export function longerBudget(maxTokens: number, thinkingChars: number): number {
  return Math.max(2 * maxTokens, maxTokens + 512) + Math.ceil(thinkingChars / 4);
}

/** What the endpoint would see of a request: two asks with the same are the same body. */
function bodyOf(r: ChatRequest): string {
  return JSON.stringify([r.messages, r.maxTokens ?? null, r.schemaInPrompt ?? false]);
}

export function repairMessages(messages: ChatMessage[], replyText: string, errors: string[]): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: replyText.slice(0, 4000) || '(an empty reply)' },
    {
      role: 'user',
      content:
        `That reply cannot be used: ${errors.join('; ')}. Reply again with the corrected JSON object only, with ` +
        `every key the instructions ask for and within their limits, and nothing else.`,
    },
  ];
}

function emptyTally(): PurposeTally {
  return { asks: 0, requests: 0, valid: 0, repaired: 0, mended: 0, longer: 0, reformed: 0, semanticMends: 0, fellBack: 0, completionTokens: 0 };
}

export class LlmMind implements Mind {
  readonly kind = 'llm' as const;
  readonly label: string;
  readonly fallbacks = new Map<Purpose, number>();
  /** Per purpose: asks, requests, valid at once, repaired, mended, longer, fell back. */
  readonly tally = new Map<Purpose, PurposeTally>();
  readonly budgets = new TokenBudgets();
  /** Day plans asked for, and how many of them went on to ask for their actions (decompose_actions). */
  readonly dayPlans = { asked: 0, decomposed: 0 };
  private readonly offline = new OfflineMind();

  constructor(private readonly options: LlmMindOptions) {
    this.label = options.label;
  }

  tallyOf(purpose: Purpose): PurposeTally {
    let t = this.tally.get(purpose);
    if (!t) this.tally.set(purpose, (t = emptyTally()));
    return t;
  }

  /**
   * One validated answer, or null (the caller then falls back, and it is counted). Transport failures
   * were already retried below (llm/RetryingChatModel.ts); when they are exhausted the ask is sent once
   * more in another form (a bigger budget, the whole schema in the prompt). A cut-off reply is asked
   * again once with a bigger budget, and one cut off again is a failure. A reply that fails the schema
   * or the town's checks (`inTown`: places, speakers, evidence) gets up to REPAIR_TURNS repair turns,
   * each seeing the errors. No body is sent twice for one ask. A reply whose only fault after the last
   * turn is what it names is returned (the caller drops those elements), counted as a semantic mend, and
   * never cached.
   */
  private async ask<S extends z.ZodType>(
    purpose: Purpose,
    agentId: string | null,
    messages: ChatMessage[],
    schema: S,
    floorTokens: number,
    schemaName = `${purpose}_reply`,
    inTown?: (value: z.infer<S>) => string[],
    /** The zod schema's own narrowed to this town and day (replyShape.ts), for the embedded grammar; zod still judges. */
    shape?: JsonSchema,
  ): Promise<z.infer<S> | null> {
    const tally = this.tallyOf(purpose);
    tally.asks++;
    const judge = (json: unknown): ReplyCheck<z.infer<S>> & { townErrors: string[] } => {
      const check = checkReply(schema, json);
      if (!check.ok) return { ...check, townErrors: [] };
      const townErrors = inTown?.(check.value) ?? [];
      return { ...check, townErrors };
    };
    const accept = (json: unknown) => {
      const j = judge(json);
      return j.ok && j.townErrors.length === 0;
    };
    const first: ChatRequest = {
      purpose,
      agentId,
      messages,
      schemaName,
      schema: jsonSchemaOf(schema),
      ...(shape ? { grammarShape: shape } : {}),
      maxTokens: this.budgets.budgetFor(schemaName, floorTokens, jsonSchemaOf(schema)),
      temperature: 0,
      accept,
    };
    let request = first;
    const sent = new Set<string>();
    let lengthened = false;
    let reformed = false;
    let repairs = 0;
    let townTrouble = false;
    let conversation = messages;
    let reason = '';
    let lastTownOnly: z.infer<S> | null = null;
    for (;;) {
      sent.add(bodyOf(request));
      let reply: ChatResponse | null = null;
      let errors: string[];
      let text = '';
      tally.requests++;
      try {
        reply = await this.options.model.complete(request);
      } catch (error) {
        // The town is closing: the operation ends here, with no fallback written in its name.
        if (error instanceof LlmAbortedError) throw error;
        if (!(error instanceof LlmReplyError)) {
          reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          // Transport retries are spent on this body: once, the ask goes again in another form.
          if (reformed) break;
          reformed = true;
          tally.reformed++;
          const maxTokens = longerBudget(request.maxTokens ?? floorTokens, 0);
          this.options.onMend?.({
            purpose,
            agentId,
            how: 'longer',
            note: `${reason.slice(0, 120)}; sent again with ${maxTokens} tokens and the schema in the prompt`,
          });
          request = { ...request, maxTokens, schemaInPrompt: true, firstRequest: first };
          continue;
        }
        errors = [error.message];
        text = error.text;
      }
      if (reply) {
        if (!reply.cached) {
          this.budgets.observe(schemaName, reply.usage.completionTokens, reply.thinkingChars ?? 0);
          tally.completionTokens += reply.usage.completionTokens;
        }
        text = reply.text;
        if (reply.finishReason === 'length') {
          if (!lengthened) {
            lengthened = true;
            tally.longer++;
            const maxTokens = longerBudget(request.maxTokens ?? floorTokens, reply.thinkingChars ?? 0);
            this.options.onMend?.({ purpose, agentId, how: 'longer', note: `cut off at ${request.maxTokens} tokens, asked again with ${maxTokens}` });
            request = { ...request, maxTokens, firstRequest: first };
            continue;
          }
          // Cut off again, with the bigger budget: whatever jsonrepair closed is not an answer.
          errors = [`the reply was cut off at ${request.maxTokens} tokens; write it shorter`];
        } else {
          const check = judge(reply.json);
          if (check.ok && check.townErrors.length === 0) {
            if (repairs > 0) tally.repaired++;
            else if (check.notes.length === 0) tally.valid++;
            if (townTrouble) tally.semanticMends++;
            if (check.notes.length) {
              tally.mended++;
              this.options.onMend?.({ purpose, agentId, how: 'mend', note: check.notes.slice(0, 4).join('; ') });
            }
            return check.value;
          }
          if (check.ok) {
            townTrouble = true;
            lastTownOnly = check.value;
            errors = check.townErrors;
          } else {
            lastTownOnly = null;
            errors = check.errors;
          }
        }
      }
      if (repairs >= REPAIR_TURNS) {
        reason = `unusable after ${repairs} repair turn${repairs > 1 ? 's' : ''}: ${errors!.join('; ')}`;
        break;
      }
      repairs++;
      this.options.onMend?.({ purpose, agentId, how: 'repair', note: errors!.join('; ').slice(0, 300) });
      conversation = repairMessages(conversation, text, errors!);
      request = { ...request, messages: conversation, firstRequest: first };
      // Never the same body twice: a repeated repair (the same reply, the same errors) goes with a bigger budget.
      if (sent.has(bodyOf(request))) request = { ...request, maxTokens: longerBudget(request.maxTokens ?? floorTokens, 0) };
    }
    if (lastTownOnly !== null) {
      // Only what it names is wrong: the caller keeps the rest; counted, and not cached (accept refused it).
      tally.semanticMends++;
      tally.mended++;
      this.options.onMend?.({ purpose, agentId, how: 'mend', note: `names not in town dropped: ${reason.slice(0, 240)}` });
      return lastTownOnly;
    }
    tally.fellBack++;
    this.fallbacks.set(purpose, (this.fallbacks.get(purpose) ?? 0) + 1);
    this.options.onFallback?.({ purpose, agentId, reason });
    return null;
  }

  /** Ratings for `n` items: extras cut, missing ones taken from `fill` (the offline rules), with a note. */
  private fitCount(purpose: Purpose, agentId: string, ratings: number[], n: number, fill: () => number[]): number[] {
    if (ratings.length === n) return ratings;
    const filled = ratings.length > n ? ratings.slice(0, n) : [...ratings, ...fill().slice(ratings.length)];
    this.tallyOf(purpose).mended++;
    this.options.onMend?.({
      purpose,
      agentId,
      how: 'mend',
      note: `${ratings.length} ratings for ${n} items: ${ratings.length > n ? 'trimmed' : 'the missing ones rated by the offline rules'}`,
    });
    return filled;
  }

  async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    if (descriptions.length === 0) return [];
    const p = ctx.agent.persona;
    const reply = await this.ask('importance', p.id, P.importancePrompt(p, descriptions), P.ImportanceReply, 32 + descriptions.length * 6);
    if (reply && reply.ratings.length > 0) {
      return this.fitCount('importance', p.id, reply.ratings, descriptions.length, () => descriptions.map((d) => rateImportanceHeuristically(d, p)));
    }
    if (reply) this.reportMismatch('importance', p.id, `no ratings for ${descriptions.length} memories`);
    return this.offline.rateImportance(ctx, descriptions);
  }

  /** Ratings, whether to react and whom to talk to, in one importance call (the offline rules if it fails). */
  async appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal> {
    if (observations.length === 0) return { ratings: [], react: false, talkTo: null };
    const p = ctx.agent.persona;
    const people = company.map((a) => ({
      name: a.persona.name,
      relationship: a.relationship,
      lastTalked: a.lastTalkedGameMs === null ? null : P.nowLabel(a.lastTalkedGameMs),
      news: a.news.map((m) => m.description),
    }));
    const messages = P.appraisePrompt(p, {
      nowLabel: P.nowLabel(ctx.gameMs),
      currentAction: ctx.agent.currentAction,
      observations: observations.map((o) => o.description),
      company: people,
    });
    const known = (name: string) => company.some((a) => a.persona.name.toLowerCase() === name || a.persona.name.split(' ')[0].toLowerCase() === name);
    const reply = await this.ask(
      'importance',
      p.id,
      messages,
      P.AppraiseReply,
      48 + observations.length * 6,
      'appraise_reply',
      (r) => {
        const named = r.talkTo?.trim().toLowerCase();
        if (!named || known(named) || /^(none|nobody|no one|null|n\/a)$/.test(named)) return [];
        const present = company.map((a) => a.persona.name);
        return [`$.talkTo: "${r.talkTo}" is not here; ${present.length ? `the people here are ${present.join(', ')}, or null` : 'nobody is here: null'}`];
      },
      // One rating per observation; talkTo: one of the people here, or null.
      withNameOrNull(
        withLength(jsonSchemaOf(P.AppraiseReply), 'ratings', observations.length),
        'talkTo',
        people.map((c) => c.name),
      ),
    );
    if (reply && reply.ratings.length > 0) {
      const offlineRatings = () => observations.map((o) => rateImportanceHeuristically(o.description, o.actorId === p.id ? undefined : p));
      const ratings = this.fitCount('importance', p.id, reply.ratings, observations.length, offlineRatings);
      const named = reply.talkTo?.trim().toLowerCase();
      const talkTo = named
        ? (company.find((a) => a.persona.name.toLowerCase() === named || a.persona.name.split(' ')[0].toLowerCase() === named)?.persona.id ?? null)
        : null;
      return { ratings, react: reply.react, talkTo };
    }
    if (reply) this.reportMismatch('importance', p.id, `no ratings for ${observations.length} observations`);
    return this.offline.appraise(ctx, observations, company);
  }

  async planDay(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<DayPlanning> {
    const p = ctx.agent.persona;
    // The offline plan is the fallback for any level that fails, and fills any gap the LLM leaves.
    const base = planFromRoutine(p, ctx.map, ctx.seed, day, memories);
    this.dayPlans.asked++;
    const plan = await this.askDayPlan(ctx, day, memories, yesterday);
    if (!plan) return { plan: base, currently: null };
    const currently = yesterday ? plan.currently : null;
    const { broadStrokes } = plan;
    const blocks = await this.decomposeBlocks(ctx, broadStrokes);
    if (blocks.length === 0) return { plan: { ...base, broadStrokes }, currently };
    // The plan goes to the sim with its hour blocks and the routine's actions; the blocks' actions follow as a
    // re-plan when decomposed (refinement), so the clock never waits on a whole day of actions.
    const hourBlocks = toHourBlocks(blocks, p);
    return { plan: { day, broadStrokes, hourBlocks, actions: base.actions }, currently, refinement: this.decomposeActions(ctx, blocks, base) };
  }

  /** The broad strokes of the day (and, after a first day, what the agent is about), or null when the ask failed. */
  askDayPlan(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<z.infer<typeof P.PlanReply> | null> {
    const p = ctx.agent.persona;
    const dayLabel = P.nowLabel(day * 86_400_000).replace(/, \d\d:\d\d$/, '');
    return this.ask('plan', p.id, P.planPrompt(p, dayLabel, P.routineText(p), memories, yesterday), P.PlanReply, 400);
  }

  /** Broad strokes decomposed into hour blocks, then into actions; `base` (the routine plan) fills what fails. */
  async decomposeDay(ctx: MindContext, day: number, broadStrokes: string[], base: DayPlan): Promise<DayPlan> {
    const blocks = await this.decomposeBlocks(ctx, broadStrokes);
    if (blocks.length === 0) return { ...base, broadStrokes };
    const hourBlocks = toHourBlocks(blocks, ctx.agent.persona);
    return { day, broadStrokes, hourBlocks, actions: await this.decomposeActions(ctx, blocks, base) };
  }

  /** The day's hour blocks at places in town (none when the ask failed or named none). */
  async decomposeBlocks(ctx: MindContext, broadStrokes: string[]): Promise<HourBlock[]> {
    const p = ctx.agent.persona;
    const arenas = ctx.map.arenas.map((a) => a.address);
    const waking = wakingDay(p.wakeAt, p.sleepAt); // sleepMinute > 1440 for a bedtime after midnight
    // Blocks start on the half hour of the waking day, at one of the town's places.
    const blocksShape = withItemEnums(
      jsonSchemaOf(P.HourBlocksReply),
      'blocks',
      { start: clockGrid(waking.wakeMinute, waking.sleepMinute, 30), place: arenas },
      MAX_HOUR_BLOCKS,
      { activity: MAX_ACTIVITY_CHARS },
    );
    const blocksReply = await this.ask(
      'decompose',
      p.id,
      P.hourBlocksPrompt(p, broadStrokes, arenas),
      P.HourBlocksReply,
      600,
      'decompose_blocks',
      (r) =>
        placeErrors(
          r.blocks.map((b, i) => ({ path: `$.blocks[${i}].place`, place: b.place })),
          arenas,
          (place) => ctx.map.arenasByAddress.has(place),
        ),
      blocksShape,
    );
    const blocks = (blocksReply?.blocks ?? []).filter((b) => ctx.map.arenasByAddress.has(b.place) && isClock(b.start));
    if (blocksReply && blocks.length === 0) this.reportMismatch('decompose', p.id, 'no hour block at a place in town');
    if (blocks.length > 0) this.dayPlans.decomposed++;
    return blocks;
  }

  /** Each part of the day's blocks decomposed into actions; the routine (`base`) fills what a part leaves. */
  async decomposeActions(ctx: MindContext, blocks: HourBlock[], base: DayPlan): Promise<PlannedAction[]> {
    const p = ctx.agent.persona;
    const waking = wakingDay(p.wakeAt, p.sleepAt);
    // The day's actions in parts of a few hours, asked side by side: no reply has to hold a whole day,
    // and a part that fails is filled from the routine plan alone.
    const parts = await Promise.all(
      partsOfDay(blocks, waking.wakeMinute, waking.sleepMinute).map(async ({ blocks: part, from, to }) => {
        const objectsByPlace = Object.fromEntries(part.map((b) => [b.place, ctx.map.arenasByAddress.get(b.place)!.objects.map((o) => o.name)]));
        const spots = part.flatMap((b) => [b.place, ...objectsByPlace[b.place].map((o) => `${b.place}: ${o}`)]);
        // Actions start on the five minutes of this part, at its blocks' places or their objects.
        const partFrom = minuteOfWakingDay(parseClock(from.padStart(5, '0')), waking.wakeMinute);
        const partTo = minuteOfWakingDay(parseClock(to.padStart(5, '0')), waking.wakeMinute);
        // At most one action for every ACTION_MINUTES_PER_ITEM of the span: what a small model writes stays short, the routine fills the rest.
        const span = Math.max(partTo - partFrom, 5);
        const shape = withItemEnums(
          jsonSchemaOf(P.ActionsReply),
          'actions',
          { start: clockGrid(partFrom, partFrom + span, 5), place: spots },
          Math.ceil(span / ACTION_MINUTES_PER_ITEM),
          { description: MAX_ACTIVITY_CHARS, emoji: 2 },
        );
        const reply = await this.ask(
          'decompose',
          p.id,
          P.actionsPrompt(p, part, objectsByPlace, { from, to }),
          P.ActionsReply,
          1200,
          'decompose_actions',
          (r) =>
            placeErrors(
              r.actions.map((a, i) => ({ path: `$.actions[${i}].place`, place: a.place })),
              spots,
              (place) => resolveAddress(place, ctx.map) !== null,
            ),
          shape,
        );
        return reply?.actions ?? [];
      }),
    );
    return normaliseActions(parts.flat(), ctx.map, waking.wakeMinute, waking.sleepMinute, base.actions);
  }

  async react(ctx: MindContext, observations: Observation[], memories: Memory[]): Promise<Reaction | null> {
    const p = ctx.agent.persona;
    const places = ctx.map.arenas.map((a) => a.address);
    const reply = await this.ask(
      'react',
      p.id,
      P.reactPrompt(
        p,
        P.nowLabel(ctx.gameMs),
        ctx.agent.currentAction,
        observations.map((o) => o.description),
        memories,
        places,
      ),
      P.ReactReply,
      200,
      'react_reply',
      (r) =>
        r.react && r.activity
          ? placeErrors([{ path: '$.activity.place', place: r.activity.place }], places, (place) => resolveAddress(place, ctx.map) !== null)
          : [],
    );
    if (!reply) return this.offline.react(ctx, observations);
    if (!reply.react || !reply.activity) return null;
    const address = resolveAddress(reply.activity.place, ctx.map) ?? ctx.agent.currentPlace;
    const minute = planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
    const action = {
      startMinute: minute,
      durationMinutes: reply.activity.minutes,
      description: reply.activity.description,
      emoji: reply.activity.emoji,
      address,
    };
    return { reason: reply.reason || observations[0]?.description || 'a reaction', actions: fitAction(ctx.agent.plan?.actions ?? [], action) };
  }

  async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
    const p = ctx.agent.persona;
    const seen = new Set(input.memories.map((m) => m.id));
    const memories = [...input.memories, ...input.news.filter((m) => !seen.has(m.id))];
    const reply = await this.ask(
      'converse',
      p.id,
      P.turnPrompt(p, input.partner, {
        nowLabel: P.nowLabel(ctx.gameMs),
        place: ctx.agent.currentPlace,
        currentAction: ctx.agent.currentAction,
        relationship: input.relationship,
        memories,
        history: input.history,
        lastTurn: input.turn >= input.maxTurns - 1,
      }),
      P.TurnReply,
      120,
    );
    if (!reply) return this.offline.converseTurn(ctx, input);
    return { text: reply.line, end: reply.end || input.turn >= input.maxTurns - 1 };
  }

  async converseWhole(speakers: [Speaker, Speaker], maxTurns: number): Promise<ConversationLine[]> {
    const [a, b] = speakers;
    const side = (s: Speaker) => ({
      persona: s.ctx.agent.persona,
      relationship: s.relationship,
      memories: mergeMemories(s.memories, s.news),
      currentAction: s.ctx.agent.currentAction,
    });
    const messages = P.wholeConversationPrompt(side(a), side(b), { nowLabel: P.nowLabel(a.ctx.gameMs), place: a.ctx.agent.currentPlace, maxLines: maxTurns });
    const byName = new Map(
      speakers.flatMap(
        (s) =>
          [
            [s.ctx.agent.persona.name.toLowerCase(), s.ctx.agent.persona],
            [s.ctx.agent.persona.name.split(' ')[0].toLowerCase(), s.ctx.agent.persona],
          ] as const,
      ),
    );
    const names = speakers.map((s) => s.ctx.agent.persona.name);
    const reply = await this.ask('converse', a.ctx.agent.persona.id, messages, P.ConversationReply, 80 * maxTurns, 'converse_whole', (r) =>
      r.lines.flatMap((l, i) =>
        byName.has(l.speaker.trim().toLowerCase())
          ? []
          : [`$.lines[${i}].speaker: "${l.speaker}" is not in this conversation; the speakers are ${names.join(' and ')}`],
      ),
    );
    if (!reply) return this.offline.converseWhole(speakers, maxTurns);
    return reply.lines
      .map((l) => ({ persona: byName.get(l.speaker.trim().toLowerCase()), text: l.line }))
      .filter((l): l is { persona: Persona; text: string } => l.persona !== undefined)
      .slice(0, maxTurns)
      .map((l) => ({ speaker: l.persona.id, speakerName: l.persona.name, text: l.text }));
  }

  async summariseConversation(input: SummaryInput): Promise<ConversationSummary> {
    const [ca, cb] = input.contexts;
    const [a, b] = [ca.agent.persona, cb.agent.persona];
    const context = { nowLabel: P.nowLabel(ca.gameMs), relationships: input.relationships, plans: [restOfDay(ca), restOfDay(cb)] as [string, string] };
    const reply = await this.ask('summarise', a.id, P.summaryPrompt(a, b, input.lines, context), P.SummaryReply, 600);
    if (!reply) return withLinesHeard(await this.offline.summariseConversation(input), input);
    return {
      summary: reply.summary,
      learned: { [a.id]: reply.learnedByFirst, [b.id]: reply.learnedBySecond },
      relationships: { [a.id]: reply.firstNowThinks, [b.id]: reply.secondNowThinks },
      plans: { [a.id]: toPlanning(reply.firstPlans, ca), [b.id]: toPlanning(reply.secondPlans, cb) },
      invitations: toInvitations(reply.invitations, ca, [a, b]),
    };
  }

  async reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]> {
    const p = ctx.agent.persona;
    const reply = await this.ask('reflect', p.id, P.questionsPrompt(p, recent), P.QuestionsReply, 200, 'reflect_questions');
    return reply ? reply.questions : this.offline.reflectQuestions(ctx, recent);
  }

  async reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]> {
    const p = ctx.agent.persona;
    const reply = await this.ask('reflect', p.id, P.insightsPrompt(p, question, memories), P.InsightsReply, 400, 'reflect_insights', (r) =>
      r.insights.flatMap((ins, i) =>
        ins.evidence
          .filter((n) => !(n >= 1 && n <= memories.length))
          .map((n) => `$.insights[${i}].evidence: ${n} is not a statement's number; the statements are numbered 1 to ${memories.length}`),
      ),
    );
    if (!reply) return this.offline.reflectInsights(ctx, question, memories);
    // Evidence comes back as list numbers; an insight citing a number not in the list is dropped, not trusted.
    return reply.insights
      .filter((i) => i.evidence.every((n) => n >= 1 && n <= memories.length))
      .map((i) => ({ text: i.insight, evidence: [...new Set(i.evidence.map((n) => memories[n - 1].id))] }));
  }

  async interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string> {
    const p = ctx.agent.persona;
    // What the agent thinks of anyone the question names.
    const people = [...ctx.names]
      .filter(([id, name]) => id !== p.id && mentions(question, name) && ctx.relationships.has(id))
      .map(([id, name]) => ({ name, relationship: ctx.relationships.get(id)! }));
    const reply = await this.ask(
      'interview',
      p.id,
      P.interviewPrompt(p, P.nowLabel(ctx.gameMs), ctx.agent.currentAction, question, memories, people),
      P.InterviewReply,
      300,
    );
    return reply ? reply.answer : this.offline.interview(ctx, question, memories);
  }

  private reportMismatch(purpose: Purpose, agentId: string, reason: string): void {
    this.fallbacks.set(purpose, (this.fallbacks.get(purpose) ?? 0) + 1);
    this.options.onFallback?.({ purpose, agentId, reason });
  }
}

/**
 * When the summary failed: each speaker learns the other's lines, reported as facts about the one who
 * said them ("I am running for mayor" said by Tomas is "Tomas Varga is running for mayor"), so retrieval,
 * news and plans still see an invitation a model wrote (the offline summary reads only its own acts), and
 * a retelling never says "heard from Tomas that I am running".
 */
export function withLinesHeard(summary: ConversationSummary, input: SummaryInput): ConversationSummary {
  const people = input.contexts.map((c) => c.agent.persona);
  const [a, b] = people.map((p) => p.id);
  const heardBy = (listener: string) =>
    input.lines
      .filter((l) => l.speaker !== listener && l.text.trim())
      .map((l) => {
        const speaker = people.find((p) => p.id === l.speaker);
        const hearer = people.find((p) => p.id === listener);
        if (!speaker || !hearer) return l.text.trim();
        return report(l.text.trim(), { name: speaker.name, pronouns: pronounsOf(speaker) }, { name: hearer.name, pronouns: pronounsOf(hearer) });
      });
  const learned = (id: string) => [...new Set([...(summary.learned[id] ?? []), ...heardBy(id)])];
  return { ...summary, learned: { ...summary.learned, [a]: learned(a), [b]: learned(b) } };
}

/**
 * A model's invitations, with residents' ids: the guest must be one of the two who talked (by full or first
 * name), the host anyone in town (else kept by name); an invitation to oneself is dropped.
 */
function toInvitations(reply: z.infer<typeof P.SummaryReply>['invitations'], ctx: MindContext, pair: [Persona, Persona]): InvitationRecord[] {
  const idOf = (name: string, among: ReadonlyMap<string, string>) => {
    const said = name.trim().toLowerCase();
    for (const [id, full] of among) if (full.toLowerCase() === said || full.split(' ')[0].toLowerCase() === said) return id;
    return null;
  };
  const talkers = new Map(pair.map((p) => [p.id as string, p.name]));
  const out: InvitationRecord[] = [];
  for (const i of reply) {
    const guestId = idOf(i.guest, talkers);
    const hostId = idOf(i.host, ctx.names);
    if (!guestId || hostId === guestId) continue;
    out.push({ hostId, host: i.host.trim(), guestId, about: i.what.trim(), when: i.when.trim() || null, answer: i.answer });
  }
  return out;
}

/** Memories then news, without repeats. */
function mergeMemories(memories: Memory[], news: Memory[]): Memory[] {
  const seen = new Set(memories.map((m) => m.id));
  return [...memories, ...news.filter((m) => !seen.has(m.id))];
}

/** The next few actions of the agent's plan, for the summary's planning thoughts. */
function restOfDay(ctx: MindContext): string {
  const p = ctx.agent.persona;
  const minute = planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
  return (ctx.agent.plan?.actions ?? [])
    .filter((a) => a.startMinute > minute)
    .slice(0, 6)
    .map((a) => `${formatClock(a.startMinute % 1440)} ${a.description} @ ${a.address}`)
    .join('; ');
}

/** A model's planning thought, with its appointment at a real place and a minute of the agent's waking day (dropped otherwise). */
function toPlanning(reply: z.infer<typeof P.SummaryReply>['firstPlans'], ctx: MindContext): PlanningThought | null {
  if (!reply) return null;
  const a = reply.appointment;
  const address = a ? resolveAddress(a.place, ctx.map) : null;
  const wake = parseClock(ctx.agent.persona.wakeAt);
  const appointment: PlannedAction | null =
    a && address && isClock(a.start)
      ? {
          startMinute: minuteOfWakingDay(parseClock(a.start.padStart(5, '0')), wake),
          durationMinutes: a.minutes,
          description: a.description,
          emoji: a.emoji,
          address,
        }
      : null;
  return { thought: reply.thought, appointment };
}

/** Hour blocks grouped into parts of the day of at most DECOMPOSE_PART_MINUTES, each with the span it covers. */
function partsOfDay<B extends { start: string }>(blocks: B[], wakeMinute: number, sleepMinute: number): Array<{ blocks: B[]; from: string; to: string }> {
  const at = (b: B) => minuteOfWakingDay(parseClock(b.start.padStart(5, '0')), wakeMinute);
  const sorted = [...blocks].sort((x, y) => at(x) - at(y));
  const parts: Array<{ blocks: B[]; from: string; to: string }> = [];
  let current: B[] = [];
  for (const b of sorted) {
    if (current.length > 0 && at(b) - at(current[0]) >= DECOMPOSE_PART_MINUTES) {
      parts.push({ blocks: current, from: current[0].start, to: b.start });
      current = [];
    }
    current.push(b);
  }
  if (current.length) parts.push({ blocks: current, from: current[0].start, to: formatClock(sleepMinute % 1440) });
  return parts;
}

function isClock(text: string): boolean {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60;
}

/** One error per place a reply names that is not in town, with the places it may name (at most 40 of them). */
function placeErrors(named: Array<{ path: string; place: string }>, valid: string[], isPlace: (place: string) => boolean): string[] {
  const wrong = named.filter((n) => !isPlace(n.place));
  if (wrong.length === 0) return [];
  const list = valid.slice(0, 40).join('; ') + (valid.length > 40 ? '; …' : '');
  return [...wrong.slice(0, 4).map((n) => `${n.path}: "${n.place}" is not a place in town`), `the places are: ${list}`];
}

/** "Hobbs Cafe: cafe" or "Hobbs Cafe: cafe: counter" as written by a model, if it names a real place. */
export function resolveAddress(place: string, map: TownMap): string | null {
  const clean = place.trim().replace(/\s*:\s*/g, ': ');
  if (map.objectsByAddress.has(clean) || map.arenasByAddress.has(clean)) return clean;
  const lower = clean.toLowerCase();
  for (const key of [...map.objectsByAddress.keys(), ...map.arenasByAddress.keys()]) if (key.toLowerCase() === lower) return key;
  return null;
}

/** A model's hour blocks in minutes of the persona's waking day, each lasting until the next (the last until bedtime). */
function toHourBlocks(blocks: Array<{ start: string; activity: string }>, p: Persona) {
  const { wakeMinute, sleepMinute } = wakingDay(p.wakeAt, p.sleepAt);
  const sorted = blocks
    .map((b) => ({ startMinute: minuteOfWakingDay(parseClock(b.start.padStart(5, '0')), wakeMinute), activity: b.activity }))
    .sort((x, y) => x.startMinute - y.startMinute);
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
    .map((a) => ({
      startMinute: minuteOfWakingDay(parseClock(a.start.padStart(5, '0')), wakeMinute),
      durationMinutes: a.minutes,
      description: a.description.trim(),
      emoji: a.emoji,
      address: resolveAddress(a.place, map),
    }))
    .filter((a): a is PlannedAction => a.address !== null && a.startMinute >= wakeMinute && a.startMinute < sleepMinute)
    .sort((a, b) => a.startMinute - b.startMinute);
  const out: PlannedAction[] = [];
  let cursor = wakeMinute;
  const fill = (from: number, to: number) => {
    for (let m = from; m < to;) {
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
