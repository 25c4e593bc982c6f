// An interview benchmark of believability that needs no human: the paper's five interview categories
// (self-knowledge, memory, plans, reactions, reflections) asked of every agent after a recorded run,
// each answer checked against the agent's own records. An answer passes when it contradicts nothing
// the persona says (its name, its age, staying in character) and does what its category asks: names
// itself and its life, cites a real memory, names a real plan of the day, takes up the situation in the
// first person, or rests on a thought or a person it knows. The checks are word overlaps, so they
// measure grounding, not style.
import type { AgentId } from '../protocol/ids';
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import type { Town } from '../town/Town';

export const INTERVIEW_CATEGORIES = ['self-knowledge', 'memory', 'plans', 'reactions', 'reflections'] as const;
export type InterviewCategory = (typeof INTERVIEW_CATEGORIES)[number];

export interface InterviewResult {
  agentId: string;
  category: InterviewCategory;
  question: string;
  answer: string;
  passed: boolean;
  /** Why it failed (a contradiction, or what the category asked for that is missing); null when it passed. */
  failure: string | null;
}

export interface BelievabilityReport {
  results: InterviewResult[];
  /** Share of answers that passed, per category (0..1). */
  passRate: Record<InterviewCategory, number>;
}

/** What the checks read of one agent. */
export interface AgentRecord {
  persona: Persona;
  memories: Memory[];
  /** What its plan for the day says it does (descriptions and places). */
  planTexts: string[];
  /** People it knows: name and what it thinks of them. */
  known: Array<{ name: string; relationship: string }>;
  /** Everyone else in town, by name. */
  others: string[];
}

/** The fixed questions of each category for one agent; `someone` is a person it knows (or another resident). */
export function interviewQuestions(someone: string): Array<{ category: InterviewCategory; question: string }> {
  return [
    { category: 'self-knowledge', question: 'Give an introduction of yourself.' },
    { category: 'self-knowledge', question: 'Who are you, and what matters to you these days?' },
    { category: 'memory', question: `Who is ${someone}?` },
    { category: 'memory', question: 'What news have you heard lately?' },
    { category: 'plans', question: 'What are your plans for today?' },
    { category: 'plans', question: 'What will you be doing later today?' },
    { category: 'reactions', question: 'Your breakfast is burning! What would you do?' },
    { category: 'reactions', question: 'The shop you wanted to visit is closed today. What would you do?' },
    { category: 'reflections', question: 'What inspires you in life the most right now, and why?' },
    { category: 'reflections', question: `How do you feel about ${someone}?` },
  ];
}

/** Asks every agent of a town the questions (read-only interviews) and checks each answer. */
export async function interviewTown(town: Town): Promise<BelievabilityReport> {
  const results: InterviewResult[] = [];
  const names = [...town.personas.values()].map((p) => p.name);
  for (const persona of town.personas.values()) {
    const id = persona.id as AgentId;
    const record = agentRecord(town, persona, names);
    const someone = record.known[0]?.name ?? names.find((n) => n !== persona.name) ?? persona.name;
    for (const { category, question } of interviewQuestions(someone)) {
      const { answer } = await town.runtime.interview(id, question, town.gameMs);
      results.push({ agentId: persona.id, category, question, answer, ...checkAnswer(category, question, answer, record) });
    }
  }
  return { results, passRate: passRates(results) };
}

export function passRates(results: InterviewResult[]): Record<InterviewCategory, number> {
  const out = {} as Record<InterviewCategory, number>;
  for (const c of INTERVIEW_CATEGORIES) {
    const of = results.filter((r) => r.category === c);
    out[c] = of.length ? of.filter((r) => r.passed).length / of.length : 0;
  }
  return out;
}

function agentRecord(town: Town, persona: Persona, names: string[]): AgentRecord {
  const id = persona.id as AgentId;
  const status = town.runtime.statusOf(id);
  const revised = new Map(town.db.relationshipsOf(id).map((r) => [r.otherId, r.summary]));
  const known = [...new Set([...Object.keys(persona.relationships), ...revised.keys()])]
    .filter((other) => town.personas.has(other))
    .map((other) => ({ name: town.personas.get(other)!.name, relationship: revised.get(other) ?? persona.relationships[other] }));
  const plan = town.sim.agent(id)?.plan;
  return {
    persona: { ...persona, currently: status },
    memories: town.db.memories.recent(id, 5000),
    planTexts: plan ? plan.actions.map((a) => `${a.description} ${a.address}`) : [],
    known,
    others: names.filter((n) => n !== persona.name),
  };
}

/** Checks one answer: a contradiction fails it; otherwise it must do what its category asks. */
export function checkAnswer(category: InterviewCategory, question: string, answer: string, record: AgentRecord): { passed: boolean; failure: string | null } {
  const contradiction = contradictionIn(answer, record);
  if (contradiction) return { passed: false, failure: contradiction };
  const p = record.persona;
  const fail = (why: string) => ({ passed: false, failure: why });
  const ok = { passed: true, failure: null };
  switch (category) {
    case 'self-knowledge': {
      if (!mentionsName(answer, p.name) && !/\bI\b/.test(answer)) return fail('does not speak as itself');
      const life = [p.learned, p.currently, p.lifestyle, p.home, p.workplace ?? ''].join(' ');
      return overlap(answer, life) >= 3 ? ok : fail('says nothing of its persona');
    }
    case 'memory':
      return citedMemory(answer, record.memories) || record.known.some((k) => mentionsName(question, k.name) && overlap(answer, k.relationship) >= 3)
        ? ok
        : fail('cites no real memory');
    case 'plans':
      return record.planTexts.some((t) => overlap(answer, t) >= 2) ? ok : fail('names no real plan of the day');
    case 'reactions': {
      if (!/\b(I|I'd|I'll|I'm)\b/.test(answer)) return fail('not in the first person');
      const situation = contentWords(question).filter((w) => !['what', 'would', 'your', 'today', 'wanted', 'visit'].includes(w));
      return situation.some((w) => contentWords(answer).includes(w)) ? ok : fail('does not take up the situation');
    }
    case 'reflections': {
      const thoughts = record.memories.filter((m) => m.kind === 'thought');
      if (citedMemory(answer, thoughts)) return ok;
      if (record.known.some((k) => mentionsName(answer, k.name) && (overlap(answer, k.relationship) >= 2 || citedMemory(answer, record.memories)))) return ok;
      return overlap(answer, p.currently) >= 3 ? ok : fail('rests on no thought, person or aim of its own');
    }
  }
}

/** What an answer says that the persona contradicts: another name, another age, or stepping out of character. */
export function contradictionIn(answer: string, record: AgentRecord): string | null {
  const p = record.persona;
  if (/\b(as an ai|language model|i am an assistant|i'm an assistant)\b/i.test(answer)) return 'steps out of character';
  const named = /\b(?:I'm|I am|my name is)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)/.exec(answer)?.[1];
  if (named && record.others.some((o) => o === named || o.split(' ')[0] === named) && !p.name.startsWith(named)) return `claims to be ${named}`;
  const age = /\b(?:I'm|I am)\s+(\d{1,3})\b(?!\s*(?:am|pm|:))/.exec(answer)?.[1];
  if (age && Number(age) !== p.age) return `says it is ${age}, not ${p.age}`;
  return null;
}

/** Whether the answer repeats enough of one memory to cite it: 4 content words, or most of a short one. */
function citedMemory(answer: string, memories: Memory[]): boolean {
  const said = new Set(contentWords(answer));
  return memories.some((m) => {
    const words = [...new Set(contentWords(m.description))];
    const shared = words.filter((w) => said.has(w)).length;
    return shared >= 4 || (words.length > 0 && shared >= 2 && shared / words.length >= 0.6);
  });
}

function overlap(a: string, b: string): number {
  const x = new Set(contentWords(a));
  return new Set(contentWords(b).filter((w) => x.has(w))).size;
}

const STOP = new Set([
  'that',
  'this',
  'with',
  'from',
  'have',
  'been',
  'about',
  'they',
  'their',
  'there',
  'what',
  'when',
  'will',
  'would',
  'into',
  'than',
  'then',
  'them',
  'your',
  'just',
  'some',
  'more',
  'most',
  'very',
  'also',
]);

function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 3 && !STOP.has(w));
}

function mentionsName(text: string, fullName: string): boolean {
  const first = fullName.split(' ')[0];
  return text.includes(fullName) || new RegExp(`\\b${first}\\b`).test(text);
}
