// Defect patterns in what the offline mind writes: each a text a reader would stop at. scanWorldDefects
// reads a world's utterances, memories, reflections, statuses, plans, relationships and interview answers and returns
// every hit with where it was, talk that does not follow what was said included (scanTalkDefects); a believable run
// has none (tests/integration/cognitionDay.test.ts).
import type { WorldDb } from '../store/WorldDb';
import { isPluralNoun, statedPronouns, type Pronouns } from '../agent/grammar';

export interface DefectHit {
  pattern: string;
  /** Where: 'utterance', 'memory', 'reflection', 'status', 'plan', 'interview', 'relationship'. */
  where: string;
  text: string;
}

const KIN = 'husband|wife|son|daughter|brother|sister|mother|father|partner';
/** Present-tense verbs a first or second person never takes with an -s. */
const THIRD_VERBS = 'meets|wants|needs|has|is|does|runs|owns|goes|says|thinks|likes|knows|loves|works|lives|plans|hopes|tells|makes|takes|comes';
/** Single texts: [name, pattern]. */
export const TEXT_DEFECTS: Array<[string, RegExp]> = [
  ['doubled prefix', /(\b[A-Z][\w' ]{3,60}:)\s+\1/],
  ['first person with a third-person verb ("I meets")', new RegExp(`\\bI (${THIRD_VERBS})\\b`)],
  ['second person with a third-person verb ("you is")', new RegExp(`\\b[Yy]ou (${THIRD_VERBS})\\b`)],
  [
    '"me" as a subject ("me is")',
    /(?:^|[,;:]\s*|\b(?:that|because|and|but|thinks?|says?|said|knows?)\s+)me (?:is|am|was|has|have|does|will|can|wants|runs|\w+s)\b/i,
  ],
  ['"a friend of me"', /\b(?:friend|neighbou?r|colleague|cousin)s? of me\b/],
  ['a modal with an -s ("wills be")', /\b(?:I|[A-Z][a-z]+) (?:wills|cans|shalls|mays|musts|woulds|coulds) (?:be|come|go|do|have|not|help|see|get|tell)\b/],
  ['a name said twice for one subject ("Omar Haddad will be Omar Haddad")', /\b([A-Z][a-z]+ [A-Z][a-z]+) (?:will be|is|was) \1\b/],
  ['"their <kin>" where the person is named', new RegExp(`\\b[A-Z][a-z]+ [A-Z][a-z]+, their (${KIN})\\b`)],
  ['a place said twice', /\bat (\w[\w ]*) at \1\b/],
  ['a contraction on a name ("Rivera\'ll")', /\b[A-Z][a-z]+'ll be\b/],
  ['a sentence said twice', /(?:^|[.!?:;]\s+)([A-Z][^.!?]{20,}[.!?])[\s\S]*?[.!?:;]\s+\1/],
];

/**
 * "their"/"them" for one person whose pronouns are known ("Kenji Tanaka will be writing their book",
 * "…, as Isabella Rivera invited them"): a sentence led by the name of someone whose own file says he or
 * she, with "their"/"them" in the same clause where nobody else could be meant: no "and"/"with", no
 * plural noun before it, and every other person named is also known as he or she.
 */
export function knownPersonAsThey(text: string, people: ReadonlyMap<string, Pronouns>): boolean {
  for (const sentence of text.split(/(?<=[.!?;:])\s+/)) {
    const lead = /^([A-Z][a-z]+ [A-Z][a-z]+)\b/.exec(sentence);
    if (!lead || !people.has(lead[1])) continue;
    const clause = sentence.slice(lead[0].length).split(/[.;:!?]/)[0];
    const they = /\b(their|them|themself|themselves)\b/.exec(clause);
    if (!they) continue;
    const before = clause.slice(0, they.index);
    if (/\b(and|with|everyone|everybody|people|both|all|family|friends|together)\b/.test(before)) continue;
    if (before.split(/[^A-Za-z']+/).some((w) => w.length > 2 && /^[a-z]/.test(w) && isPluralNoun(w))) continue;
    const named = before.match(/\b[A-Z][a-z]+ [A-Z][a-z]+\b/g) ?? [];
    if (named.every((n) => people.has(n))) return true;
  }
  return false;
}

/** A stranger's introduction ("I don't think we've met", "Nice to meet you"): a defect when said to a housemate. */
const INTRODUCTION = /\b(we've met|we have met|we've not met|we haven't met|nice to meet you|pleased to meet you)\b/i;

/** Whether a line introduces the speaker as to a stranger. */
export function isIntroduction(line: string): boolean {
  return INTRODUCTION.test(line);
}

/** How many times one speaker may say the very same line in a game day before it reads as a loop (greetings name the partner, so they differ). */
export const SAME_LINE_PER_DAY_LIMIT = 3;

/** A reply that names what it heard of ("A party? Lovely.") when what it heard was something else (a book club). */
export function replyNamesOtherKind(previous: string, line: string): boolean {
  const named = /^(?:An?|The) ([A-Za-z'’ -]{3,40})\?/.exec(line.trim())?.[1];
  return named !== undefined && !previous.toLowerCase().includes(named.toLowerCase());
}

/** An insight said to be about someone ("Something important about X: …") whose content neither names X nor opens with a pronoun. */
export function insightOffSubject(text: string): boolean {
  const m = /\bSomething important about ([A-Z][a-z]+)(?: [A-Z][a-z'-]+)?: (.*)$/.exec(text);
  if (!m) return false;
  // Whom it was heard from is not what it is about.
  const content = m[2].replace(/\s*\(heard from [^)]*\)/, '');
  return !new RegExp(`\\b${m[1]}\\b`).test(content) && !/^(he|she|they|his|her|their)\b/i.test(content);
}

/** Sympathy said straight after good news. */
const SYMPATHY = /^(Oh no|That's a shame|I'm sorry to hear)/;
const GOOD_NEWS = /\b(party|celebrat\w*|wedding|birthday|concert|festival|invit\w*|engaged|promot\w*)\b/i;
const BAD_NEWS = /\b(worried|closed|fire|flood\w*|accident|died|death|hospital|cancel\w*|fight|sick|ill|hurt|broke\w*)\b/i;

/** Objects an action may name, and the object kinds (address's last part, without its number) that fit it. */
const ACTION_OBJECTS: Array<[RegExp, RegExp]> = [
  [/\bflower beds?\b|\bwatering\b/, /flower bed|garden|planter/],
  [/\bfountain\b/, /fountain/],
  [/\bstove\b|\bcooking\b/, /stove|kitchen|oven/],
  [/\bpiano\b/, /piano/],
  [/\beasel\b|\bpainting at\b/, /easel/],
  [/\bbookshelf\b/, /bookshelf|shelf/],
  [/\bshower\b/, /shower|bathroom/],
  [/\bbar counter\b|\bpouring drinks\b/, /bar/],
];

export function textDefects(text: string, where: string): DefectHit[] {
  return TEXT_DEFECTS.filter(([, re]) => re.test(text)).map(([pattern]) => ({ pattern, where, text }));
}

/** A line of sympathy answering good news (the line before it). */
export function sympathyToGoodNews(previous: string, line: string): boolean {
  const reply = line.replace(/^[^.!?]*?\b(Oh no|That's a shame|I'm sorry to hear)/, '$1');
  return SYMPATHY.test(reply) && GOOD_NEWS.test(previous) && !BAD_NEWS.test(previous);
}

/** An action that names an object at an address whose object does not fit it ("watering the flower beds" at a fountain). */
export function objectMismatch(description: string, address: string): boolean {
  const parts = address.split(': ');
  if (parts.length < 3) return false;
  const object = parts[parts.length - 1].toLowerCase().replace(/ \d+$/, '');
  return ACTION_OBJECTS.some(([action, fits]) => action.test(description.toLowerCase()) && !fits.test(object));
}

/** Every defect in a world's texts. */
export function scanWorldDefects(db: WorldDb): DefectHit[] {
  const hits: DefectHit[] = [];
  const lastLine = new Map<number, string>();
  const answers = new Map<string, Map<string, string>>();
  /** Residents whose persona file says he or she (the persona.set events come first in a world's log). */
  const people = new Map<string, Pronouns>();
  const defectsOf = (text: string, where: string): DefectHit[] => {
    const found = textDefects(text, where);
    if (knownPersonAsThey(text, people)) found.push({ pattern: '"their"/"them" for someone known as he or she', where, text });
    return found;
  };
  /** Each resident's home (persona.set), so a line to a housemate is known as one. */
  const homes = new Map<string, string>();
  for (const e of db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000)) {
    if (e.kind === 'persona.set') {
      const stated = statedPronouns(e.data);
      if (stated) people.set(e.data.name, stated);
      if (e.agentId) homes.set(e.agentId, e.data.home);
    } else if (e.kind === 'relationship.revised') hits.push(...defectsOf(e.data.summary, 'relationship'));
    else if (e.kind === 'conversation.utterance') {
      hits.push(...defectsOf(e.data.text, 'utterance'));
      const previous = lastLine.get(e.data.conversationId);
      const home = homes.get(e.data.speaker);
      if (home !== undefined && home === homes.get(e.data.listener) && isIntroduction(e.data.text))
        hits.push({ pattern: 'introducing oneself to a housemate', where: 'utterance', text: e.data.text });
      if (previous !== undefined && sympathyToGoodNews(previous, e.data.text))
        hits.push({ pattern: 'sympathy to good news', where: 'utterance', text: `${previous} → ${e.data.text}` });
      lastLine.set(e.data.conversationId, e.data.text);
    } else if (e.kind === 'memory.created') {
      hits.push(...defectsOf(e.data.description, e.data.kind === 'thought' ? 'reflection' : 'memory'));
    } else if (e.kind === 'status.revised') hits.push(...defectsOf(e.data.currently, 'status'));
    else if (e.kind === 'plan.made')
      for (const a of e.data.actions) {
        hits.push(...defectsOf(a.description, 'plan'));
        if (objectMismatch(a.description, a.address))
          hits.push({ pattern: 'an object that does not fit the action', where: 'plan', text: `${a.description} @ ${a.address}` });
      }
    else if (e.kind === 'operator.action' && e.data.action === 'interview' && e.data.agentId && e.data.answer) {
      hits.push(...defectsOf(e.data.answer, 'interview'));
      const mine = answers.get(e.data.agentId) ?? new Map<string, string>();
      const other = [...mine.entries()].find(([q, a]) => a === e.data.answer && q !== e.data.question);
      if (other)
        hits.push({ pattern: 'the same answer to different questions', where: 'interview', text: `${other[0]} / ${e.data.question}: ${e.data.answer}` });
      mine.set(e.data.question ?? '', e.data.answer);
      answers.set(e.data.agentId, mine);
    }
  }
  return [...hits, ...scanTalkDefects(db)];
}

const STACKED_PREFIXES =
  /\b((?:Still on \S+ mind from yesterday|Something important about [A-Z][\w' ]{2,40}):)\s+(?!\1)(?:Still on \S+ mind|Something important about)\b/;

/**
 * Talk that does not follow what was said (issue 42, section 3), part of scanWorldDefects: a reply naming
 * another kind of news than it heard, one speaker saying the same line more than SAME_LINE_PER_DAY_LIMIT
 * times in a game day, an insight "about X" that is about someone else, and stacked status prefixes.
 */
export function scanTalkDefects(db: WorldDb): DefectHit[] {
  const hits: DefectHit[] = [];
  const lastLine = new Map<number, string>();
  const sameLine = new Map<string, number>();
  for (const e of db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000)) {
    if (e.kind === 'conversation.utterance') {
      const previous = lastLine.get(e.data.conversationId);
      if (previous !== undefined && replyNamesOtherKind(previous, e.data.text))
        hits.push({ pattern: 'a reply naming another kind of news', where: 'utterance', text: `${previous} → ${e.data.text}` });
      lastLine.set(e.data.conversationId, e.data.text);
      const said = `${e.data.speaker}|${Math.floor(e.gameMs / 86_400_000)}|${e.data.text}`;
      const times = (sameLine.get(said) ?? 0) + 1;
      sameLine.set(said, times);
      if (times === SAME_LINE_PER_DAY_LIMIT + 1) hits.push({ pattern: 'the same line over and over in a day', where: 'utterance', text: e.data.text });
    } else if (e.kind === 'memory.created' && e.data.kind === 'thought' && insightOffSubject(e.data.description))
      hits.push({ pattern: 'an insight about someone that is about someone else', where: 'reflection', text: e.data.description });
    else if (e.kind === 'status.revised' && STACKED_PREFIXES.test(e.data.currently))
      hits.push({ pattern: 'stacked prefixes', where: 'status', text: e.data.currently });
  }
  return hits;
}
