// One ask of the LLM mind: a ChatModel call with a purpose and a JSON Schema. The reply is read tolerantly
// (llm/replyJson.ts), bent toward the schema where the meaning is clear (llm/tolerance.ts), validated with
// zod, and checked against the town (`inTown`: places on the map, speakers present, evidence in range). A
// reply cut off by its token budget is asked again once with a bigger one (cut off again, it is a failure);
// an invalid reply gets up to two repair turns (the model sees its reply, the errors and the valid names);
// an ask whose transport retries were spent goes once more in another form; after that the caller falls
// back to the offline mind. Every fallback, repair and mend is counted per purpose and reported; an error
// text is never used as an answer, and no body is sent twice for one ask.
import { z } from 'zod';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, JsonSchema, Purpose } from '../llm/types';
import { LlmAbortedError, LlmReplyError } from '../llm/errors';
import { mendToSchema } from '../llm/tolerance';
import { describeShape } from '../llm/schemaShape';
import * as P from './prompts';

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

/** The model an asker calls, and whom it tells of fallbacks and mends. */
export interface AskerOptions {
  model: ChatModel;
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

/** What one ask sends: `inTown` lists what a schema-valid reply names that is not in town; `shape` narrows the embedded grammar. */
interface AskSpec<S extends z.ZodType> {
  purpose: Purpose;
  agentId: string | null;
  messages: ChatMessage[];
  schema: S;
  floorTokens: number;
  schemaName: string;
  inTown?: (value: z.infer<S>) => string[];
  shape?: JsonSchema;
}

/** After one request: an answer, another request to send, a stop (transport spent), or errors for a repair turn. */
type Outcome<T> = { kind: 'value'; value: T } | { kind: 'again' } | { kind: 'stop' } | { kind: 'errors'; text: string; errors: string[] };

/** The asks of one mind, with their tallies per purpose and the token budgets they learn. */
export class Asker {
  readonly fallbacks = new Map<Purpose, number>();
  /** Per purpose: asks, requests, valid at once, repaired, mended, longer, fell back. */
  readonly tally = new Map<Purpose, PurposeTally>();
  readonly budgets = new TokenBudgets();

  constructor(readonly options: AskerOptions) {}

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
   * or the town's checks gets up to REPAIR_TURNS repair turns, each seeing the errors. No body is sent
   * twice for one ask. A reply whose only fault after the last turn is what it names is returned (the
   * caller drops those elements), counted as a semantic mend, and never cached.
   */
  ask<S extends z.ZodType>(
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
    return new AskRun(this, { purpose, agentId, messages, schema, floorTokens, schemaName, inTown, shape }).run();
  }

  /** Ratings for `n` items: extras cut, missing ones taken from `fill` (the offline rules), with a note. */
  fitCount(purpose: Purpose, agentId: string, ratings: number[], n: number, fill: () => number[]): number[] {
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

  /** A valid reply that still could not be used: the offline mind answers, and it is reported as a fallback. */
  reportMismatch(purpose: Purpose, agentId: string | null, reason: string): void {
    this.fallbacks.set(purpose, (this.fallbacks.get(purpose) ?? 0) + 1);
    this.options.onFallback?.({ purpose, agentId, reason });
  }
}

/** One ask's requests, repair turns and retries, until an answer or a fallback. */
class AskRun<S extends z.ZodType> {
  private readonly tally: PurposeTally;
  private readonly first: ChatRequest;
  private request: ChatRequest;
  private readonly sent = new Set<string>();
  private lengthened = false;
  private reformed = false;
  private repairs = 0;
  private townTrouble = false;
  private conversation: ChatMessage[];
  private reason = '';
  private lastTownOnly: z.infer<S> | null = null;

  constructor(
    private readonly asker: Asker,
    private readonly spec: AskSpec<S>,
  ) {
    this.tally = asker.tallyOf(spec.purpose);
    this.conversation = spec.messages;
    const schema = jsonSchemaOf(spec.schema);
    this.first = {
      purpose: spec.purpose,
      agentId: spec.agentId,
      messages: spec.messages,
      schemaName: spec.schemaName,
      schema,
      ...(spec.shape ? { grammarShape: spec.shape } : {}),
      maxTokens: asker.budgets.budgetFor(spec.schemaName, spec.floorTokens, schema),
      temperature: 0,
      accept: (json) => {
        const j = this.judge(json);
        return j.ok && j.townErrors.length === 0;
      },
    };
    this.request = this.first;
  }

  async run(): Promise<z.infer<S> | null> {
    this.tally.asks++;
    for (;;) {
      this.sent.add(bodyOf(this.request));
      this.tally.requests++;
      const outcome = await this.send();
      if (outcome.kind === 'value') return outcome.value;
      if (outcome.kind === 'stop') break;
      if (outcome.kind === 'errors' && !this.repairTurn(outcome.text, outcome.errors)) break;
    }
    return this.giveUp();
  }

  private judge(json: unknown): ReplyCheck<z.infer<S>> & { townErrors: string[] } {
    const check = checkReply(this.spec.schema, json);
    if (!check.ok) return { ...check, townErrors: [] };
    return { ...check, townErrors: this.spec.inTown?.(check.value) ?? [] };
  }

  private tell(how: MendKind, note: string): void {
    this.asker.options.onMend?.({ purpose: this.spec.purpose, agentId: this.spec.agentId, how, note });
  }

  private async send(): Promise<Outcome<z.infer<S>>> {
    let reply: ChatResponse;
    try {
      reply = await this.asker.options.model.complete(this.request);
    } catch (error) {
      // The town is closing: the operation ends here, with no fallback written in its name.
      if (error instanceof LlmAbortedError) throw error;
      if (error instanceof LlmReplyError) return { kind: 'errors', text: error.text, errors: [error.message] };
      return this.onTransportSpent(error);
    }
    return this.onReply(reply);
  }

  /** Transport retries are spent on this body: once, the ask goes again in another form. */
  private onTransportSpent(error: unknown): Outcome<z.infer<S>> {
    this.reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (this.reformed) return { kind: 'stop' };
    this.reformed = true;
    this.tally.reformed++;
    const maxTokens = longerBudget(this.request.maxTokens ?? this.spec.floorTokens, 0);
    this.tell('longer', `${this.reason.slice(0, 120)}; sent again with ${maxTokens} tokens and the schema in the prompt`);
    this.request = { ...this.request, maxTokens, schemaInPrompt: true, firstRequest: this.first };
    return { kind: 'again' };
  }

  private onReply(reply: ChatResponse): Outcome<z.infer<S>> {
    if (!reply.cached) {
      this.asker.budgets.observe(this.spec.schemaName, reply.usage.completionTokens, reply.thinkingChars ?? 0);
      this.tally.completionTokens += reply.usage.completionTokens;
    }
    if (reply.finishReason === 'length') {
      if (!this.lengthened) {
        this.lengthened = true;
        this.tally.longer++;
        const maxTokens = longerBudget(this.request.maxTokens ?? this.spec.floorTokens, reply.thinkingChars ?? 0);
        this.tell('longer', `cut off at ${this.request.maxTokens} tokens, asked again with ${maxTokens}`);
        this.request = { ...this.request, maxTokens, firstRequest: this.first };
        return { kind: 'again' };
      }
      // Cut off again, with the bigger budget: whatever jsonrepair closed is not an answer.
      return { kind: 'errors', text: reply.text, errors: [`the reply was cut off at ${this.request.maxTokens} tokens; write it shorter`] };
    }
    const check = this.judge(reply.json);
    if (check.ok && check.townErrors.length === 0) {
      if (this.repairs > 0) this.tally.repaired++;
      else if (check.notes.length === 0) this.tally.valid++;
      if (this.townTrouble) this.tally.semanticMends++;
      if (check.notes.length) {
        this.tally.mended++;
        this.tell('mend', check.notes.slice(0, 4).join('; '));
      }
      return { kind: 'value', value: check.value };
    }
    if (check.ok) {
      this.townTrouble = true;
      this.lastTownOnly = check.value;
      return { kind: 'errors', text: reply.text, errors: check.townErrors };
    }
    this.lastTownOnly = null;
    return { kind: 'errors', text: reply.text, errors: check.errors };
  }

  /** A repair turn (the model sees its reply and the errors), or false when the turns are spent. */
  private repairTurn(text: string, errors: string[]): boolean {
    if (this.repairs >= REPAIR_TURNS) {
      this.reason = `unusable after ${this.repairs} repair turn${this.repairs > 1 ? 's' : ''}: ${errors.join('; ')}`;
      return false;
    }
    this.repairs++;
    this.tell('repair', errors.join('; ').slice(0, 300));
    this.conversation = repairMessages(this.conversation, text, errors);
    this.request = { ...this.request, messages: this.conversation, firstRequest: this.first };
    // Never the same body twice: a repeated repair (the same reply, the same errors) goes with a bigger budget.
    if (this.sent.has(bodyOf(this.request))) this.request = { ...this.request, maxTokens: longerBudget(this.request.maxTokens ?? this.spec.floorTokens, 0) };
    return true;
  }

  private giveUp(): z.infer<S> | null {
    if (this.lastTownOnly !== null) {
      // Only what it names is wrong: the caller keeps the rest; counted, and not cached (accept refused it).
      this.tally.semanticMends++;
      this.tally.mended++;
      this.tell('mend', `names not in town dropped: ${this.reason.slice(0, 240)}`);
      return this.lastTownOnly;
    }
    this.tally.fellBack++;
    this.asker.reportMismatch(this.spec.purpose, this.spec.agentId, this.reason);
    return null;
  }
}
