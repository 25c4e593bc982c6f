// Prompts of the LLM mind, as pure functions of their inputs, each with a version that goes into the
// cache key (through the text) and into tests/unit/__snapshots__. Change a prompt: bump its version.
// They are kept short on purpose: tokens per agent-day is a headline figure.
import { z } from 'zod';
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import type { Purpose } from '../llm/types';
import { formatClock, formatGameTime } from '../protocol/time';
import type { ChatMessage } from '../llm/types';

export const PROMPT_VERSIONS: Record<Purpose, number> = {
  importance: 2,
  plan: 2,
  decompose: 2,
  react: 1,
  converse: 2,
  summarise: 3,
  reflect: 1,
  interview: 2,
};

// ---- output schemas (zod validates; the JSON Schema derived from them is sent to the endpoint) ----

export const ImportanceReply = z.strictObject({ ratings: z.array(z.number().int().min(1).max(10)) });
/** Observations: their importance, and in the same reply whether to react and whom in view to talk to. */
export const AppraiseReply = z.strictObject({ ratings: z.array(z.number().int().min(1).max(10)), react: z.boolean(), talkTo: z.string().nullable() });
export const PlanReply = z.strictObject({ currently: z.string().min(1), broadStrokes: z.array(z.string().min(1)).min(3).max(12) });
export const HourBlocksReply = z.strictObject({
  blocks: z
    .array(z.strictObject({ start: z.string().regex(/^\d{1,2}:\d{2}$/), activity: z.string().min(1), place: z.string().min(1) }))
    .min(3)
    .max(24),
});
export const ActionsReply = z.strictObject({
  actions: z
    .array(
      z.strictObject({
        start: z.string().regex(/^\d{1,2}:\d{2}$/),
        minutes: z.number().int().min(5).max(60),
        description: z.string().min(1),
        emoji: z.string().min(1).max(8),
        place: z.string().min(1),
      }),
    )
    .min(3),
});
export const ReactReply = z.strictObject({
  react: z.boolean(),
  reason: z.string(),
  activity: z
    .strictObject({ description: z.string().min(1), emoji: z.string().min(1).max(8), place: z.string().min(1), minutes: z.number().int().min(5).max(240) })
    .nullable(),
});
export const TurnReply = z.strictObject({ line: z.string().min(1).max(400), end: z.boolean() });
export const ConversationReply = z.strictObject({
  lines: z
    .array(z.strictObject({ speaker: z.string().min(1), line: z.string().min(1).max(400) }))
    .min(2)
    .max(16),
});
const Appointment = z.strictObject({
  start: z.string().regex(/^\d{1,2}:\d{2}$/),
  minutes: z.number().int().min(15).max(240),
  description: z.string().min(1),
  emoji: z.string().min(1).max(8),
  place: z.string().min(1),
});
const PlanningReply = z.strictObject({ thought: z.string().min(1), appointment: Appointment.nullable() }).nullable();
/** An invitation made in the talk: who invited whom (full names), to what, when (as said), and the guest's answer. */
const InvitationReply = z.strictObject({
  host: z.string().min(1),
  guest: z.string().min(1),
  what: z.string().min(1),
  when: z.string(),
  answer: z.enum(['accepted', 'declined', 'undecided']),
});
export const SummaryReply = z.strictObject({
  summary: z.string().min(1),
  learnedByFirst: z.array(z.string()).max(5),
  learnedBySecond: z.array(z.string()).max(5),
  firstNowThinks: z.string().min(1),
  secondNowThinks: z.string().min(1),
  firstPlans: PlanningReply,
  secondPlans: PlanningReply,
  invitations: z.array(InvitationReply).max(4),
});
export const QuestionsReply = z.strictObject({ questions: z.array(z.string().min(1)).min(1).max(3) });
export const InsightsReply = z.strictObject({
  insights: z
    .array(z.strictObject({ insight: z.string().min(1), evidence: z.array(z.number().int().min(1)).min(1) }))
    .min(1)
    .max(5),
});
export const InterviewReply = z.strictObject({ answer: z.string().min(1) });

// ---- shared pieces ------------------------------------------------------------------------------

export function describePersona(p: Persona): string {
  return [`Name: ${p.name} (age ${p.age})`, `Innate traits: ${p.innate.join(', ')}`, p.learned, p.currently, `Lifestyle: ${p.lifestyle}`].join('\n');
}

/** Memories as a numbered list; the numbers are how replies cite evidence. */
export function listMemories(memories: readonly Memory[]): string {
  return memories.length ? memories.map((m, i) => `${i + 1}. ${m.description}`).join('\n') : '(none)';
}

const json = 'Reply with JSON only, matching the schema.';

export function system(p: Persona, purpose: Purpose): ChatMessage {
  return {
    role: 'system',
    content:
      `You are simulating ${p.name}, a resident of a small town, in a generative-agents simulation. Stay in ` +
      `character and be concise. ${json} [${purpose} v${PROMPT_VERSIONS[purpose]}]`,
  };
}

// ---- one function per prompt --------------------------------------------------------------------

export function importancePrompt(p: Persona, descriptions: string[]): ChatMessage[] {
  return [
    system(p, 'importance'),
    {
      role: 'user',
      content:
        `On a scale of 1 to 10, where 1 is purely mundane (brushing teeth, making bed) and 10 is extremely poignant ` +
        `(a break-up, college acceptance), rate how poignant each memory is for ${p.name}. Give ` +
        `exactly ${descriptions.length} ratings, in order.\n${descriptions.map((d, i) => `${i + 1}. ${d}`).join('\n')}`,
    },
  ];
}

export function appraisePrompt(
  p: Persona,
  context: {
    nowLabel: string;
    currentAction: string;
    observations: string[];
    company: Array<{ name: string; relationship: string | null; lastTalked: string | null; news: string[] }>;
  },
): ChatMessage[] {
  const people = context.company.length
    ? `People nearby ${p.name} could start talking with now:\n${context.company
        .map(
          (c) =>
            `- ${c.name}: ${c.relationship ?? 'a stranger'}${c.lastTalked ? ` (last talked ${c.lastTalked})` : ''}` +
            `${c.news.length ? `\n  News ${p.name} could tell them: ${c.news.join(' ')}` : ''}`,
        )
        .join('\n')}\n`
    : '';
  return [
    system(p, 'importance'),
    {
      role: 'user',
      content:
        `It is ${context.nowLabel}. ${p.name} is ${context.currentAction}.\n${p.name} just ` +
        `perceived:\n${context.observations.map((d, i) => `${i + 1}. ${d}`).join('\n')}\n${people}\nratings: on a ` +
        `scale of 1 (purely mundane, like brushing teeth) to 10 (extremely poignant, like a break-up), how poignant ` +
        `each perception is for ${p.name}: exactly ${context.observations.length}, in order.\nreact: whether ${p.name} ` +
        `should change what they are doing because of it.\ntalkTo: ${
          context.company.length
            ? `the name of the one person above ${p.name} would start a conversation with now ` +
              `(given what they think of them, when they last talked, and the news), or null`
            : 'null'
        }.`,
    },
  ];
}

export function planPrompt(
  p: Persona,
  dayLabel: string,
  routine: string,
  memories: readonly Memory[],
  yesterday: readonly Memory[] | null = null,
): ChatMessage[] {
  const revise = yesterday
    ? `What ${p.name} did and thought yesterday:\n${listMemories(yesterday)}\n\ncurrently: ${p.name}'s status for ` +
      `today, revised in light of yesterday (one or two sentences, like the status above).`
    : `currently: ${p.name}'s status for today (the status above, unless something changed).`;
  return [
    system(p, 'plan'),
    {
      role: 'user',
      content:
        `${describePersona(p)}\nUsual routine:\n${routine}\nWhat ${p.name} remembers that may matter ` +
        `today:\n${listMemories(memories)}\n${revise}\n\nToday is ${dayLabel}. ${p.name} wakes at ${p.wakeAt} and goes ` +
        `to bed at ${p.sleepAt}. broadStrokes: ${p.name}'s plan for today in broad strokes, 4 to 8 items with times ` +
        `("wake up and get ready at 6:30am").`,
    },
  ];
}

export function hourBlocksPrompt(p: Persona, broadStrokes: string[], places: string[]): ChatMessage[] {
  return [
    system(p, 'decompose'),
    {
      role: 'user',
      content:
        `${p.name}'s plan today: ${broadStrokes.join('; ')}.\nPlaces ${p.name} can go ("Sector: ` +
        `arena"): ${places.join(' | ')}.\nHome is ${p.home}${p.workplace ? `; work is ${p.workplace}` : ''}.\nSplit ` +
        `the waking day (${p.wakeAt} to ${p.sleepAt}) into consecutive blocks of about an hour or more, each with a ` +
        `start time (HH:MM, 24h), an activity and a place from the list.`,
    },
  ];
}

/** One part of the day (a few hour blocks, `from` to `to`), so no reply has to hold a whole day's actions. */
export function actionsPrompt(
  p: Persona,
  blocks: Array<{ start: string; activity: string; place: string }>,
  objectsByPlace: Record<string, string[]>,
  span: { from: string; to: string },
): ChatMessage[] {
  const blockLines = blocks.map((b) => `${b.start} ${b.activity} @ ${b.place} [objects: ${(objectsByPlace[b.place] ?? []).join(', ') || 'none'}]`).join('\n');
  return [
    system(p, 'decompose'),
    {
      role: 'user',
      content:
        `Break each block of this part of ${p.name}'s day into actions of 5 to 15 minutes (longer, up to 60, only for ` +
        `long sitting activities). Each action: start (HH:MM, 24h), minutes, a short present-participle description ` +
        `("brewing coffee"), one emoji, and a place: the block's place, or "place: object" with one of its ` +
        `objects.\nBlocks:\n${blockLines}\nCover from ${span.from} to ${span.to} without gaps.`,
    },
  ];
}

export function reactPrompt(
  p: Persona,
  nowLabel: string,
  currentAction: string,
  observations: string[],
  memories: readonly Memory[],
  places: string[],
): ChatMessage[] {
  return [
    system(p, 'react'),
    {
      role: 'user',
      content:
        `It is ${nowLabel}. ${p.name} is ${currentAction}.\n${p.name} just ` +
        `noticed:\n${observations.map((o) => `- ${o}`).join('\n')}\nRelevant ` +
        `memories:\n${listMemories(memories)}\nShould ${p.name} change what they are doing? If so give the new ` +
        `activity (description, emoji, minutes, and a place from: ${places.join(' | ')}); if not, react=false and ` +
        `activity=null.`,
    },
  ];
}

export function turnPrompt(
  p: Persona,
  partner: Persona,
  context: {
    nowLabel: string;
    place: string;
    currentAction: string;
    relationship: string | null;
    memories: readonly Memory[];
    history: Array<{ speakerName: string; text: string }>;
    lastTurn: boolean;
  },
): ChatMessage[] {
  const history = context.history.length ? context.history.map((l) => `${l.speakerName}: ${l.text}`).join('\n') : '(the conversation is just starting)';
  return [
    system(p, 'converse'),
    {
      role: 'user',
      content:
        `${describePersona(p)}\nIt is ${context.nowLabel}, at ${context.place}. ${p.name} ` +
        `was ${context.currentAction} and meets ${partner.name}.\n${context.relationship ? `Relationship: ${context.relationship}\n` : ''}What ${p.name} ` +
        `remembers about ${partner.name} and the topic:\n${listMemories(context.memories)}\nConversation so ` +
        `far:\n${history}\n\nWrite ${p.name}'s next line (one or two sentences). Share news or plans that matter. Set ` +
        `end=true when the conversation should end${context.lastTurn ? ' (it must end now)' : ''}.`,
    },
  ];
}

export function wholeConversationPrompt(
  a: { persona: Persona; relationship: string | null; memories: readonly Memory[]; currentAction: string },
  b: { persona: Persona; relationship: string | null; memories: readonly Memory[]; currentAction: string },
  context: { nowLabel: string; place: string; maxLines: number },
): ChatMessage[] {
  const side = (x: typeof a, other: Persona) =>
    `${describePersona(x.persona)}\n${x.persona.name} was ${x.currentAction}.` +
    `${x.relationship ? ` What ${x.persona.name} thinks of ${other.name}: ${x.relationship}` : ` ${x.persona.name} does not know ${other.name}.`}` +
    `\nWhat ${x.persona.name} ` +
    `remembers that may come up:\n${listMemories(x.memories)}`;
  return [
    {
      role: 'system',
      content:
        `You write conversations between residents of a small town in a generative-agents simulation. Keep each one ` +
        `in character and concise. ${json} [converse v${PROMPT_VERSIONS.converse}]`,
    },
    {
      role: 'user',
      content:
        `It is ${context.nowLabel}, at ${context.place}. ${a.persona.name} meets ${b.persona.name} and starts ` +
        `talking.\n\n${side(a, b.persona)}\n\n${side(b, a.persona)}\n\nWrite their whole ` +
        `conversation, ${a.persona.name} first, taking turns, at most ${context.maxLines} lines of one or two ` +
        `sentences. They share news or plans that matter to them, and end naturally. speaker: the full name.`,
    },
  ];
}

export function summaryPrompt(
  a: Persona,
  b: Persona,
  lines: Array<{ speakerName: string; text: string }>,
  context: { nowLabel: string; relationships: [string | null, string | null]; plans: [string, string] },
): ChatMessage[] {
  const thinks = (x: Persona, y: Persona, r: string | null) => `- ${x.name} thought of ${y.name}: ${r ?? 'a stranger'}`;
  return [
    { role: 'system', content: `You summarise conversations in a town simulation. ${json} [summarise v${PROMPT_VERSIONS.summarise}]` },
    {
      role: 'user',
      content:
        `It is ${context.nowLabel}. Conversation between ${a.name} (first) and ${b.name} ` +
        `(second):\n${lines.map((l) => `${l.speakerName}: ${l.text}`).join('\n')}\n\nBefore ` +
        `it:\n${thinks(a, b, context.relationships[0])}\n${thinks(b, a, context.relationships[1])}\nThe rest of today ` +
        `for ${a.name}: ${context.plans[0] || 'nothing planned'}\nThe rest of today ` +
        `for ${b.name}: ${context.plans[1] || 'nothing planned'}\n\nsummary: one sentence. learnedByFirst / ` +
        `learnedBySecond: the new facts each learned from the other, as standalone third-person sentences (e.g. ` +
        `"Isabella is hosting a party at Hobbs Cafe on February 14 at 5pm."); empty lists if nothing new. ` +
        `firstNowThinks / secondNowThinks: what each now thinks of the other, revised by this talk (one or two ` +
        `sentences). firstPlans / secondPlans: each one's planning thought after the talk (what they should remember ` +
        `for their plans), with an appointment for later today they accepted (start HH:MM, minutes, description, ` +
        `emoji, place as "Sector: arena"), or null when the talk changes nothing for them. invitations: each ` +
        `invitation one of them made to the other in this talk (host and guest: full names; what: the gathering and ` +
        `its place; when: as said; answer: accepted, declined or undecided); news of a gathering passed on without ` +
        `inviting is not an invitation; an empty list if none.`,
    },
  ];
}

export function questionsPrompt(p: Persona, recent: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'reflect'),
    {
      role: 'user',
      content:
        `${p.name}'s recent memories:\n${listMemories(recent)}\n\nGiven only this, what are the 3 most salient ` +
        `high-level questions we can answer about ${p.name}'s life and the people around them?`,
    },
  ];
}

export function insightsPrompt(p: Persona, question: string, memories: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'reflect'),
    {
      role: 'user',
      content:
        `Statements about ${p.name}:\n${listMemories(memories)}\n\nQuestion: ${question}\nWhat high-level insights ` +
        `(up to 3) can you infer? For each, cite the numbers of the statements it rests on as evidence.`,
    },
  ];
}

export function interviewPrompt(
  p: Persona,
  nowLabel: string,
  currentAction: string,
  question: string,
  memories: readonly Memory[],
  people: Array<{ name: string; relationship: string }> = [],
): ChatMessage[] {
  const thinks = people.map((x) => `What ${p.name} thinks of ${x.name}: ${x.relationship}\n`).join('');
  return [
    system(p, 'interview'),
    {
      role: 'user',
      content:
        `${describePersona(p)}\nIt is ${nowLabel}; ${p.name} is ${currentAction}.\n${thinks}Relevant ` +
        `memories:\n${listMemories(memories)}\n\nAn interviewer asks: "${question}"\nAnswer as ${p.name}, in the first ` +
        `person, from these memories only.`,
    },
  ];
}

export function routineText(p: Persona): string {
  return p.routine.map((r) => `${r.at} ${r.activity} @ ${Array.isArray(r.place) ? r.place.join(' or ') : r.place}`).join('\n');
}

export function nowLabel(gameMs: number): string {
  return formatGameTime(gameMs);
}

export { formatClock };
