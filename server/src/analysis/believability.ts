// An interview benchmark of believability that needs no human: the paper's five interview categories
// (self-knowledge, memory, plans, reactions, reflections) asked of every agent after a recorded run,
// each answer graded against the agent's OWN records, and the same grader run on controls that must
// fail.
//
// An answer passes when
//  1. it contradicts nothing the persona says (its name, its age, staying in character);
//  2. it has the form its category asks (speaks as itself; takes up the situation in the first person);
//  3. it is grounded: it shares at least MIN_GROUNDED_WORDS content words (not the question's) with the
//     records its category rests on (see SOURCES);
//  4. it is specific: those shared words, each weighted by how few agents' records hold it (inverse
//     document frequency over the town's agents), score higher against the agent's own records than
//     against any other resident's. Words that every agent's records hold weigh nothing, so news all
//     the town heard, or a sentence that could be anybody's, grounds nothing.
//  5. it is made of sentences: at least MIN_FUNCTION_WORD_SHARE of its words are function words
//     (pronouns, determiners, prepositions, auxiliaries, conjunctions), as any English sentence's are;
//  6. it does not deny its records: no sentence with a negation ("not", "never", "n't") that says what
//     a record item says (MIN_GROUNDED_WORDS of its content words) where the item itself has none; and
//     no claim of a home, a workplace or a kinship its records contradict ("I live at <another home>",
//     "I work at <another place>", "<someone> is my <kin>" where its line about them says otherwise).
// Rule 4 is what lets the grader fail on borrowed records; 5 and 6 on answers built from the agent's own
// words. The controls are the same answers graded against another agent's records (every record moved
// one resident along), against records shuffled item by item across the town (seeded), a generic
// sentence per category graded against the agent's own records, and, against its own records, each
// answer negated (compromise's toNegative), with a contradiction added (a home, a workplace or a kinship
// that is another's, seeded), and as word salad (its own content words, shuffled, seeded). Real answers
// should pass (≥ 0.8); every control should not (≤ 0.05). On the offline mind, whose answers are built
// from the very records they are graded against, the pass rate is a check of its consistency, not of
// believability (that is the LLM mind's figure).
import type { AgentId } from '../protocol/ids';
import type { Memory } from '../store/types';
import { planOfKept } from '../protocol/plan';
import type { Persona } from '../world/persona';
import type { Town } from '../town/Town';
import { Rng } from '../sim/rng';
import { nlp } from '../agent/nlp';

export const INTERVIEW_CATEGORIES = ['self-knowledge', 'memory', 'plans', 'reactions', 'reflections'] as const;
export type InterviewCategory = (typeof INTERVIEW_CATEGORIES)[number];

/** The controls every report grades next to the real answers. */
export const INTERVIEW_CONTROLS = ['other-agent', 'shuffled', 'generic', 'negation', 'contradiction', 'word-salad'] as const;
export type InterviewControl = (typeof INTERVIEW_CONTROLS)[number];

/** Content words an answer must share with its category's records (beyond the question's) to be grounded at all. */
export const MIN_GROUNDED_WORDS = 2;

/**
 * Least share of an answer's words that are function words (rule 5), for answers of FUNCTION_WORDS_FROM
 * words or more. Reason: running English has 40-50% function words; a list of content words has none. A
 * fifth leaves room for terse answers ("Hobbs Cafe, at the counter, serving coffee.") and none for salad.
 */
export const MIN_FUNCTION_WORD_SHARE = 0.2;
export const FUNCTION_WORDS_FROM = 5;
/** The closed classes of English: pronouns, determiners, prepositions, auxiliaries, conjunctions. */
const FUNCTION_WORDS = new Set(
  (
    "i i'm i'd i'll i've me my mine you your he him his she her it its we us our they them their this that these those a an the some any " +
    'no every each all of in on at to for from with by about as into over after before under between and or but so because if when while ' +
    "than then is am are was were be been being do does did have has had will would can could shall should may might must not don't " +
    "didn't won't can't isn't aren't wasn't haven't hasn't there here what who which where how why"
  ).split(/\s+/),
);
const NEGATION = /\b(not|never|no longer|nobody|nothing|n't)\b|n't\b/i;
const KIN = [
  'wife',
  'husband',
  'daughter',
  'son',
  'mother',
  'father',
  'sister',
  'brother',
  'grandmother',
  'grandfather',
  'aunt',
  'uncle',
  'cousin',
  'niece',
  'nephew',
  'fiancé',
  'fiancée',
  'partner',
];

/**
 * The generic control: one sentence per category that anybody in any town could say. Each is graded
 * against every agent's own records, once per question of its category.
 */
export const GENERIC_ANSWERS: Record<InterviewCategory, string> = {
  'self-knowledge': "I'm a friendly person who likes living here. I enjoy my work and spending time with people around town.",
  memory: "I've heard a few things around town lately, nothing too surprising. People have been busy with their days.",
  plans: "Today I'll go about my usual routine: do some work, have lunch, see a friend and relax in the evening.",
  reactions: "I'd stay calm, deal with it as best I can, and then carry on with my day.",
  reflections: "I'm inspired by the people around me and by trying to do my best every single day.",
};

export interface InterviewResult {
  agentId: string;
  category: InterviewCategory;
  question: string;
  answer: string;
  passed: boolean;
  /** Why it failed (a contradiction, a missing form, no grounding, or a rival's records fit better); null when it passed. */
  failure: string | null;
}

export interface ControlReport {
  /** Share of control gradings that passed, per category (0..1). */
  passRate: Record<InterviewCategory, number>;
  /** Share over all categories. */
  overall: number;
  graded: number;
}

export interface BelievabilityReport {
  results: InterviewResult[];
  /** Share of answers that passed, per category (0..1). */
  passRate: Record<InterviewCategory, number>;
  /** Share of all answers that passed. */
  overall: number;
  /** The same grader on each control; every one should fail. */
  controls: Record<InterviewControl, ControlReport>;
  /** Share of all control gradings (the three pooled) that passed. */
  controlPassRate: number;
}

/** What the grader reads of one agent. */
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

/** The records each category's answers rest on. The agent's own name is left out of grounding (identity is rule 1's job). */
export const SOURCES: Record<InterviewCategory, (r: AgentRecord) => string[]> = {
  'self-knowledge': (r) => [r.persona.learned, r.persona.currently, r.persona.lifestyle, r.persona.home, r.persona.workplace ?? '', ...r.persona.innate],
  memory: (r) => [...r.memories.map((m) => m.description), ...r.known.map((k) => `${k.name}: ${k.relationship}`)],
  plans: (r) => [...r.planTexts, ...r.memories.filter((m) => m.kind === 'plan').map((m) => m.description), r.persona.currently],
  reactions: (r) => [...r.planTexts, r.persona.home, r.persona.workplace ?? '', r.persona.lifestyle, ...r.known.map((k) => k.name)],
  reflections: (r) => [
    ...r.memories.filter((m) => m.kind === 'thought').map((m) => m.description),
    ...r.known.map((k) => `${k.name}: ${k.relationship}`),
    r.persona.currently,
    r.persona.learned,
  ],
};

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

/** Asks every agent of a town the questions (read-only interviews), grades each answer, and grades the controls. */
export async function interviewTown(town: Town, seed = 1): Promise<BelievabilityReport> {
  const names = [...town.personas.values()].map((p) => p.name);
  const records = new Map<string, AgentRecord>();
  const asked: Array<Omit<InterviewResult, 'passed' | 'failure'>> = [];
  for (const persona of town.personas.values()) {
    const id = persona.id as AgentId;
    const record = agentRecord(town, persona, names);
    records.set(persona.id, record);
    const someone = record.known[0]?.name ?? names.find((n) => n !== persona.name) ?? persona.name;
    for (const { category, question } of interviewQuestions(someone)) {
      const { answer } = await town.runtime.interview(id, question, town.gameMs);
      asked.push({ agentId: persona.id, category, question, answer });
    }
  }
  return gradeInterviews(asked, records, seed);
}

/** Grades answers against their agents' own records, and the same answers on each control. */
export function gradeInterviews(asked: Array<Omit<InterviewResult, 'passed' | 'failure'>>, records: Map<string, AgentRecord>, seed = 1): BelievabilityReport {
  const real = new InterviewGrader(records);
  const results = asked.map((a) => ({ ...a, ...real.grade(a.agentId, a.category, a.question, a.answer) }));
  const onRecords = (grader: InterviewGrader) => asked.map((a) => ({ ...a, ...grader.grade(a.agentId, a.category, a.question, a.answer) }));
  const graded: Record<InterviewControl, InterviewResult[]> = {
    'other-agent': onRecords(new InterviewGrader(otherAgentRecords(records))),
    shuffled: onRecords(new InterviewGrader(shuffledRecords(records, seed))),
    generic: asked.map((a) => ({ ...a, answer: GENERIC_ANSWERS[a.category], ...real.grade(a.agentId, a.category, a.question, GENERIC_ANSWERS[a.category]) })),
    negation: onOwn(real, asked, (a) => negated(a.answer)),
    contradiction: onOwn(real, asked, (a, k) => contradicted(a.answer, records.get(a.agentId)!, records, seed, k)),
    'word-salad': onOwn(real, asked, (a, k) => wordSalad(a.answer, seed, k)),
  };
  const controls = Object.fromEntries(
    INTERVIEW_CONTROLS.map((c) => [c, { passRate: passRates(graded[c]), overall: share(graded[c]), graded: graded[c].length }]),
  ) as Record<InterviewControl, ControlReport>;
  return { results, passRate: passRates(results), overall: share(results), controls, controlPassRate: share(INTERVIEW_CONTROLS.flatMap((c) => graded[c])) };
}

/** Answers made from the real ones (negated, contradicted, as salad), graded against the agent's own records. */
function onOwn(
  grader: InterviewGrader,
  asked: Array<Omit<InterviewResult, 'passed' | 'failure'>>,
  make: (a: Omit<InterviewResult, 'passed' | 'failure'>, k: number) => string,
): InterviewResult[] {
  return asked.map((a, k) => {
    const answer = make(a, k);
    return { ...a, answer, ...grader.grade(a.agentId, a.category, a.question, answer) };
  });
}

/** The negation control: every clause of the answer negated ("I run Hobbs Cafe, then go home" → "I do not run Hobbs Cafe, then do not go home"). */
export function negated(answer: string): string {
  return answer
    .split(/(?<=[,;:])\s+/)
    .map((clause) => nlp(clause).sentences().toNegative().text())
    .join(' ');
}

/**
 * The contradiction control: the answer with one claim added that its records contradict, in turn (seeded
 * by `k`): living at another resident's home, working at another's workplace, or a kinship with someone it
 * knows that its line about them does not hold.
 */
export function contradicted(answer: string, record: AgentRecord, records: Map<string, AgentRecord>, seed: number, k: number): string {
  const rng = Rng.fromKey(seed, 'interview-contradiction', k);
  const others = [...records.values()].filter((r) => r.persona.name !== record.persona.name);
  const homes = [...new Set(others.map((r) => r.persona.home).filter((h) => h !== record.persona.home))];
  const works = [
    ...new Set(others.map((r) => sectorOf(r.persona.workplace)).filter((w): w is string => w !== null && w !== sectorOf(record.persona.workplace))),
  ];
  const known = record.known.filter((p) => !KIN.some((kin) => new RegExp(`\\b${kin}\\b`, 'i').test(p.relationship)));
  const kinds = [homes.length && 'home', works.length && 'work', known.length && 'kin'].filter((x): x is string => Boolean(x));
  const kind = kinds.length ? rng.pick(kinds) : null;
  const claim =
    kind === 'home'
      ? `I live at ${rng.pick(homes)}.`
      : kind === 'work'
        ? `I work at ${rng.pick(works)}.`
        : kind === 'kin'
          ? `${rng.pick(known).name} is my ${rng.pick(KIN.slice(0, 8))}.`
          : '';
  return `${answer} ${claim}`.trim();
}

/** The word-salad control: the answer's own content words, shuffled (seeded by `k`), with no grammar. */
export function wordSalad(answer: string, seed: number, k: number): string {
  const rng = Rng.fromKey(seed, 'interview-salad', k);
  const words = answer.split(/[^A-Za-z']+/).filter((w) => w.length > 3 && !FUNCTION_WORDS.has(w.toLowerCase()));
  return `${rng.shuffle(words).join(' ')}.`;
}

function sectorOf(place: string | null): string | null {
  return place ? place.split(': ')[0] : null;
}

export function passRates(results: InterviewResult[]): Record<InterviewCategory, number> {
  const out = {} as Record<InterviewCategory, number>;
  for (const c of INTERVIEW_CATEGORIES) out[c] = share(results.filter((r) => r.category === c));
  return out;
}

function share(results: InterviewResult[]): number {
  return results.length ? results.filter((r) => r.passed).length / results.length : 0;
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
    planTexts: plan ? planOfKept(plan).actions.map((a) => `${a.description} ${a.address}`) : [],
    known,
    others: names.filter((n) => n !== persona.name),
  };
}

// ---- the grader ----------------------------------------------------------------------------------

/**
 * Grades answers against one set of records (the town's own, or a control's): rules 1 to 4 above. An
 * answer's fit to an agent's records is, for each of its sentences, the best single record item it
 * matches (a memory, a plan step, a relationship, a line of the persona), summed: so "Yumi told me:
 * <the party>" fits the memory heard from Yumi, not a bag of words that holds "Yumi" and "party" apart.
 */
export class InterviewGrader {
  /** Per category: each agent's source items as word sets, its words, and in how many agents' sources each word is. */
  private readonly sources = new Map<
    InterviewCategory,
    { items: Map<string, Array<Set<string>>>; byAgent: Map<string, Set<string>>; agentsWith: Map<string, number> }
  >();

  constructor(private readonly records: Map<string, AgentRecord>) {
    this.places = new Set([...records.values()].flatMap((r) => [r.persona.home, sectorOf(r.persona.workplace)]).filter((x): x is string => Boolean(x)));
    for (const category of INTERVIEW_CATEGORIES) {
      const items = new Map<string, Array<Set<string>>>();
      const byAgent = new Map<string, Set<string>>();
      const agentsWith = new Map<string, number>();
      for (const [id, record] of records) {
        const sets = SOURCES[category](record)
          .map((text) => new Set(contentWords(text)))
          .filter((set) => set.size > 0);
        const all = new Set(sets.flatMap((set) => [...set]));
        items.set(id, sets);
        byAgent.set(id, all);
        for (const w of all) agentsWith.set(w, (agentsWith.get(w) ?? 0) + 1);
      }
      this.sources.set(category, { items, byAgent, agentsWith });
    }
  }

  /** The town's homes and workplaces (sectors): what a claim to live or work somewhere is checked against. */
  private readonly places: Set<string>;

  /** Rule 6: a negated clause that says what one of its records says plainly, or a home, workplace or kinship its records contradict. */
  private denialIn(answer: string, record: AgentRecord): string | null {
    // The clause that holds the negation ("…: I did not feel like going"), its speaker's own name left out.
    const clauses = answer.split(/(?<=[.!?;:,])\s+/).filter((c) => NEGATION.test(c));
    if (clauses.length > 0) {
      const items = INTERVIEW_CATEGORIES.flatMap((c) => SOURCES[c](record)).filter((t) => t && !NEGATION.test(t));
      const names = new Set(contentWords(record.persona.name));
      const first = record.persona.name.split(' ')[0];
      for (const clause of clauses) {
        if (new RegExp(`\\bI(?:'m| am) not ${first}\\b`).test(clause)) return 'denies being itself';
        const words = new Set(contentWords(clause).filter((w) => !names.has(w)));
        const said = items.find((t) => contentWords(t).filter((w) => words.has(w)).length >= MIN_GROUNDED_WORDS);
        if (said) return `denies its records ("${said.slice(0, 60)}")`;
      }
    }
    const p = record.persona;
    // Every claim to live or work at a place of the town, not only the first.
    const claimed = (verbs: RegExp) =>
      [...answer.matchAll(verbs)].map((m) => {
        const rest = answer
          .slice((m.index ?? 0) + m[0].length)
          .replace(/^the\s+/i, '')
          .toLowerCase();
        return [...this.places].find((x) => rest.startsWith(x.toLowerCase()) || rest.startsWith(x.toLowerCase().replace(/^the\s+/, ''))) ?? null;
      });
    const home = claimed(/\bI(?: live|'m living| am living| stay)(?: at| in) /g).find((x) => x !== null && x !== p.home);
    if (home) return `says it lives at ${home}, not ${p.home}`;
    const work = claimed(/\bI(?: work|'m working| am working)(?: at| in) /g).find((x) => x !== null && x !== sectorOf(p.workplace));
    if (work) return `says it works at ${work}, not ${sectorOf(p.workplace) ?? 'nowhere'}`;
    for (const kin of answer.matchAll(new RegExp(`\\b([A-Z][a-z]+(?: [A-Z][a-z]+)?) is my (${KIN.join('|')})\\b`, 'g'))) {
      const line = record.known.find((k) => k.name === kin[1] || k.name.split(' ')[0] === kin[1])?.relationship;
      if (line !== undefined && !new RegExp(`\\b${kin[2]}\\b`, 'i').test(line)) return `calls ${kin[1]} its ${kin[2]}, which its records do not say`;
    }
    return null;
  }

  grade(agentId: string, category: InterviewCategory, question: string, answer: string): { passed: boolean; failure: string | null } {
    const record = this.records.get(agentId);
    if (!record) throw new Error(`interview grader: no records for agent "${agentId}"`);
    const fail = (why: string) => ({ passed: false, failure: why });
    const contradiction = contradictionIn(answer, record);
    if (contradiction) return fail(contradiction);
    const form = formProblem(category, question, answer, record);
    if (form) return fail(form);
    const salad = notSentences(answer);
    if (salad) return fail(salad);
    const denial = this.denialIn(answer, record);
    if (denial) return fail(denial);
    const { items, byAgent, agentsWith } = this.sources.get(category)!;
    const asked = new Set([...contentWords(question), ...contentWords(record.persona.name)]);
    const sentences = answer
      .split(/(?<=[.!?])\s+/)
      .map((s) => [...new Set(contentWords(s))].filter((w) => !asked.has(w)))
      .filter((words) => words.length > 0);
    const grounded = new Set(sentences.flat().filter((w) => byAgent.get(agentId)!.has(w)));
    if (grounded.size < MIN_GROUNDED_WORDS) return fail(`not grounded in its ${category} records (${grounded.size} shared words)`);
    const weight = (w: string) => Math.log(byAgent.size / (agentsWith.get(w) ?? byAgent.size));
    const fit = (of: Array<Set<string>>) =>
      sentences.reduce((sum, words) => sum + Math.max(0, ...of.map((item) => words.reduce((s, w) => s + (item.has(w) ? weight(w) : 0), 0))), 0);
    const mine = fit(items.get(agentId)!);
    // An answer about someone ("Who is Isabella?") fits that person's own records too: they are no rival.
    const about = [...this.records].find(([id, r]) => id !== agentId && question.includes(r.persona.name))?.[0];
    let rival: { id: string; fit: number } | null = null;
    for (const [id, of] of items) {
      if (id === agentId || id === about) continue;
      const f = fit(of);
      if (!rival || f > rival.fit) rival = { id, fit: f };
    }
    if (rival && rival.fit >= mine) return fail(`fits ${rival.id}'s records as well as its own (${rival.fit.toFixed(2)} ≥ ${mine.toFixed(2)})`);
    return { passed: true, failure: null };
  }
}

/** Rule 5: an answer of several words with too few function words is not made of sentences. */
export function notSentences(answer: string): string | null {
  const words = answer.toLowerCase().match(/[a-z']+/g) ?? [];
  if (words.length < FUNCTION_WORDS_FROM) return null;
  const share = words.filter((w) => FUNCTION_WORDS.has(w)).length / words.length;
  return share < MIN_FUNCTION_WORD_SHARE ? `not sentences (${Math.round(share * 100)}% function words)` : null;
}

/** The first control: every agent's records moved one resident along (in id order), persona included. */
export function otherAgentRecords(records: Map<string, AgentRecord>): Map<string, AgentRecord> {
  const ids = [...records.keys()].sort();
  return new Map(ids.map((id, i) => [id, records.get(ids[(i + 1) % ids.length])!]));
}

/**
 * The second control: every item of every record (each memory, plan step, relationship, and each field
 * of the persona's life) dealt at random across the town to agents other than its owner, each agent
 * keeping its identity (id, name, age) and how many items of each kind it holds: records of the same
 * shape, none of them its own. Seeded, so a seed gives the same deal.
 */
export function shuffledRecords(records: Map<string, AgentRecord>, seed: number): Map<string, AgentRecord> {
  const rng = Rng.fromKey(seed, 'interview-shuffle');
  const ids = [...records.keys()].sort();
  const deal = <T>(of: (r: AgentRecord) => T[]): Map<string, T[]> => {
    const pool = ids.flatMap((owner) => of(records.get(owner)!).map((item) => ({ owner, item })));
    const slots = ids.flatMap((id) => of(records.get(id)!).map(() => id));
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    // No item stays with its owner where a swap can move it: the record is the same shape, none of it its own.
    for (let i = 0; i < pool.length; i++) {
      if (pool[i].owner !== slots[i]) continue;
      const from = Math.floor(rng.next() * pool.length);
      for (let k = 0; k < pool.length; k++) {
        const j = (from + k) % pool.length;
        if (pool[j].owner !== slots[i] && pool[i].owner !== slots[j]) {
          [pool[i], pool[j]] = [pool[j], pool[i]];
          break;
        }
      }
    }
    const dealt = new Map(ids.map((id) => [id, [] as T[]]));
    pool.forEach((p, i) => dealt.get(slots[i])!.push(p.item));
    return dealt;
  };
  const memories = deal((r) => r.memories);
  const plans = deal((r) => r.planTexts);
  const known = deal((r) => r.known);
  const innate = deal((r) => r.persona.innate);
  const field = (key: 'learned' | 'currently' | 'lifestyle' | 'home') => deal((r) => [r.persona[key]]);
  const [learned, currently, lifestyle, home] = [field('learned'), field('currently'), field('lifestyle'), field('home')];
  const workplace = deal((r) => [r.persona.workplace]);
  return new Map(
    ids.map((id) => {
      const r = records.get(id)!;
      const persona: Persona = {
        ...r.persona,
        learned: learned.get(id)![0],
        currently: currently.get(id)![0],
        lifestyle: lifestyle.get(id)![0],
        home: home.get(id)![0],
        workplace: workplace.get(id)![0],
        innate: innate.get(id)!,
      };
      return [id, { persona, memories: memories.get(id)!, planTexts: plans.get(id)!, known: known.get(id)!, others: r.others }];
    }),
  );
}

/** What the category asks of an answer's form, or null when it has it. */
function formProblem(category: InterviewCategory, question: string, answer: string, record: AgentRecord): string | null {
  if (category === 'self-knowledge' && !mentionsName(answer, record.persona.name) && !/\bI\b/.test(answer)) return 'does not speak as itself';
  if (category === 'reactions') {
    if (!/\b(I|I'd|I'll|I'm)\b/.test(answer)) return 'not in the first person';
    const situation = contentWords(question).filter((w) => !['what', 'would', 'your', 'today', 'wanted', 'visit'].includes(w));
    if (!situation.some((w) => contentWords(answer).includes(w))) return 'does not take up the situation';
  }
  return null;
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

const STOP = new Set(
  (
    'that this with from have been about they their there what when will would into than then them your just some more most very also ' +
    'could should where which while were here those these other being after before over only even much many such said says '
  )
    .trim()
    .split(/\s+/),
);

/** Lower-case words of four letters or more, stop words left out; a plural or possessive "s" folded onto its stem. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z]+/)
    .filter((w) => w.length > 3 && !STOP.has(w))
    .map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

function mentionsName(text: string, fullName: string): boolean {
  const first = fullName.split(' ')[0];
  return text.includes(fullName) || new RegExp(`\\b${first}\\b`).test(text);
}
