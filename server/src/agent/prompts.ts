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
  importance: 1,
  plan: 1,
  decompose: 1,
  react: 1,
  converse: 1,
  summarise: 1,
  reflect: 1,
  interview: 1,
};

// ---- output schemas (zod validates; the JSON Schema derived from them is sent to the endpoint) ----

export const ImportanceReply = z.strictObject({ ratings: z.array(z.number().int().min(1).max(10)) });
export const PlanReply = z.strictObject({ broadStrokes: z.array(z.string().min(1)).min(3).max(12) });
export const HourBlocksReply = z.strictObject({
  blocks: z.array(z.strictObject({ start: z.string().regex(/^\d{1,2}:\d{2}$/), activity: z.string().min(1), place: z.string().min(1) })).min(3).max(24),
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
  activity: z.strictObject({ description: z.string().min(1), emoji: z.string().min(1).max(8), place: z.string().min(1), minutes: z.number().int().min(5).max(240) }).nullable(),
});
export const TurnReply = z.strictObject({ line: z.string().min(1).max(400), end: z.boolean() });
export const SummaryReply = z.strictObject({
  summary: z.string().min(1),
  learnedByFirst: z.array(z.string()).max(5),
  learnedBySecond: z.array(z.string()).max(5),
});
export const QuestionsReply = z.strictObject({ questions: z.array(z.string().min(1)).min(1).max(3) });
export const InsightsReply = z.strictObject({
  insights: z.array(z.strictObject({ insight: z.string().min(1), evidence: z.array(z.number().int().min(1)).min(1) })).min(1).max(5),
});
export const InterviewReply = z.strictObject({ answer: z.string().min(1) });

// ---- shared pieces ------------------------------------------------------------------------------

export function describePersona(p: Persona): string {
  return [
    `Name: ${p.name} (age ${p.age})`,
    `Innate traits: ${p.innate.join(', ')}`,
    p.learned,
    p.currently,
    `Lifestyle: ${p.lifestyle}`,
  ].join('\n');
}

/** Memories as a numbered list; the numbers are how replies cite evidence. */
export function listMemories(memories: readonly Memory[]): string {
  return memories.length ? memories.map((m, i) => `${i + 1}. ${m.description}`).join('\n') : '(none)';
}

const json = 'Reply with JSON only, matching the schema.';

export function system(p: Persona, purpose: Purpose): ChatMessage {
  return { role: 'system', content: `You are simulating ${p.name}, a resident of a small town, in a generative-agents simulation. Stay in character and be concise. ${json} [${purpose} v${PROMPT_VERSIONS[purpose]}]` };
}

// ---- one function per prompt --------------------------------------------------------------------

export function importancePrompt(p: Persona, descriptions: string[]): ChatMessage[] {
  return [
    system(p, 'importance'),
    {
      role: 'user',
      content: `On a scale of 1 to 10, where 1 is purely mundane (brushing teeth, making bed) and 10 is extremely poignant (a break-up, college acceptance), rate how poignant each memory is for ${p.name}. Give exactly ${descriptions.length} ratings, in order.\n${descriptions.map((d, i) => `${i + 1}. ${d}`).join('\n')}`,
    },
  ];
}

export function planPrompt(p: Persona, dayLabel: string, routine: string, memories: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'plan'),
    {
      role: 'user',
      content: `${describePersona(p)}\nUsual routine:\n${routine}\nWhat ${p.name} remembers that may matter today:\n${listMemories(memories)}\n\nToday is ${dayLabel}. ${p.name} wakes at ${p.wakeAt} and goes to bed at ${p.sleepAt}. Write ${p.name}'s plan for today in broad strokes, 4 to 8 items with times ("wake up and get ready at 6:30am").`,
    },
  ];
}

export function hourBlocksPrompt(p: Persona, broadStrokes: string[], places: string[]): ChatMessage[] {
  return [
    system(p, 'decompose'),
    {
      role: 'user',
      content: `${p.name}'s plan today: ${broadStrokes.join('; ')}.\nPlaces ${p.name} can go ("Sector: arena"): ${places.join(' | ')}.\nHome is ${p.home}${p.workplace ? `; work is ${p.workplace}` : ''}.\nSplit the waking day (${p.wakeAt} to ${p.sleepAt}) into consecutive blocks of about an hour or more, each with a start time (HH:MM, 24h), an activity and a place from the list.`,
    },
  ];
}

export function actionsPrompt(p: Persona, blocks: Array<{ start: string; activity: string; place: string }>, objectsByPlace: Record<string, string[]>): ChatMessage[] {
  const blockLines = blocks.map((b) => `${b.start} ${b.activity} @ ${b.place} [objects: ${(objectsByPlace[b.place] ?? []).join(', ') || 'none'}]`).join('\n');
  return [
    system(p, 'decompose'),
    {
      role: 'user',
      content: `Break each block of ${p.name}'s day into actions of 5 to 15 minutes (longer, up to 60, only for long sitting activities). Each action: start (HH:MM, 24h), minutes, a short present-participle description ("brewing coffee"), one emoji, and a place: the block's place, or "place: object" with one of its objects.\nBlocks:\n${blockLines}\nCover the whole day from ${p.wakeAt} to ${p.sleepAt} without gaps.`,
    },
  ];
}

export function reactPrompt(p: Persona, nowLabel: string, currentAction: string, observations: string[], memories: readonly Memory[], places: string[]): ChatMessage[] {
  return [
    system(p, 'react'),
    {
      role: 'user',
      content: `It is ${nowLabel}. ${p.name} is ${currentAction}.\n${p.name} just noticed:\n${observations.map((o) => `- ${o}`).join('\n')}\nRelevant memories:\n${listMemories(memories)}\nShould ${p.name} change what they are doing? If so give the new activity (description, emoji, minutes, and a place from: ${places.join(' | ')}); if not, react=false and activity=null.`,
    },
  ];
}

export function turnPrompt(
  p: Persona,
  partner: Persona,
  context: { nowLabel: string; place: string; currentAction: string; relationship: string | null; memories: readonly Memory[]; history: Array<{ speakerName: string; text: string }>; lastTurn: boolean },
): ChatMessage[] {
  const history = context.history.length ? context.history.map((l) => `${l.speakerName}: ${l.text}`).join('\n') : '(the conversation is just starting)';
  return [
    system(p, 'converse'),
    {
      role: 'user',
      content: `${describePersona(p)}\nIt is ${context.nowLabel}, at ${context.place}. ${p.name} was ${context.currentAction} and meets ${partner.name}.\n${context.relationship ? `Relationship: ${context.relationship}\n` : ''}What ${p.name} remembers about ${partner.name} and the topic:\n${listMemories(context.memories)}\nConversation so far:\n${history}\n\nWrite ${p.name}'s next line (one or two sentences). Share news or plans that matter. Set end=true when the conversation should end${context.lastTurn ? ' (it must end now)' : ''}.`,
    },
  ];
}

export function summaryPrompt(a: Persona, b: Persona, lines: Array<{ speakerName: string; text: string }>): ChatMessage[] {
  return [
    { role: 'system', content: `You summarise conversations in a town simulation. ${json} [summarise v${PROMPT_VERSIONS.summarise}]` },
    {
      role: 'user',
      content: `Conversation between ${a.name} (first) and ${b.name} (second):\n${lines.map((l) => `${l.speakerName}: ${l.text}`).join('\n')}\n\nGive a one-sentence summary, and the new facts each one learned from the other as standalone third-person sentences (e.g. "Isabella is hosting a party at Hobbs Cafe on February 14 at 5pm."). Empty lists if nothing new.`,
    },
  ];
}

export function questionsPrompt(p: Persona, recent: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'reflect'),
    { role: 'user', content: `${p.name}'s recent memories:\n${listMemories(recent)}\n\nGiven only this, what are the 3 most salient high-level questions we can answer about ${p.name}'s life and the people around them?` },
  ];
}

export function insightsPrompt(p: Persona, question: string, memories: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'reflect'),
    { role: 'user', content: `Statements about ${p.name}:\n${listMemories(memories)}\n\nQuestion: ${question}\nWhat high-level insights (up to 3) can you infer? For each, cite the numbers of the statements it rests on as evidence.` },
  ];
}

export function interviewPrompt(p: Persona, nowLabel: string, currentAction: string, question: string, memories: readonly Memory[]): ChatMessage[] {
  return [
    system(p, 'interview'),
    { role: 'user', content: `${describePersona(p)}\nIt is ${nowLabel}; ${p.name} is ${currentAction}.\nRelevant memories:\n${listMemories(memories)}\n\nAn interviewer asks: "${question}"\nAnswer as ${p.name}, in the first person, from these memories only.` },
  ];
}

export function routineText(p: Persona): string {
  return p.routine.map((r) => `${r.at} ${r.activity} @ ${Array.isArray(r.place) ? r.place.join(' or ') : r.place}`).join('\n');
}

export function nowLabel(gameMs: number): string {
  return formatGameTime(gameMs);
}

export { formatClock };
