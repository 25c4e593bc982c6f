// The person-and-number layer of the offline mind's speech: one place where a sentence about people
// is said by one of them ("Tomas is running, and Tomas has told no one" said by Tomas is "I am running,
// and I have told no one"), to one of them ("Klaus is invited" told to Klaus is "You are invited"), or
// reported from a line someone said ("I am running" said by Tomas is "Tomas Varga is running"; the
// Smallville importer's whispers the same way: "You like Sam" told to Latoya is "Latoya Williams likes Sam").
// References are found by name and by pronoun: a pronoun is the latest person named whose pronouns it
// fits ("Maria married Sam; Sam is her husband": "her" is Maria's, as Sam is "he"). Whether a mention
// is a subject, an object or a possessive, and which verbs agree with it, comes from its neighbours'
// parts of speech (compromise, one cached look-up per word, so a sentence costs no parse).
import { nlp } from './nlp';
import { BoundedCache } from '../core/boundedCache';

export interface Pronouns {
  subject: 'he' | 'she' | 'they';
  object: string;
  possessive: string;
  reflexive: string;
  /** "they" takes plural verbs ("they are"). */
  plural: boolean;
}

export const HE: Pronouns = { subject: 'he', object: 'him', possessive: 'his', reflexive: 'himself', plural: false };
export const SHE: Pronouns = { subject: 'she', object: 'her', possessive: 'her', reflexive: 'herself', plural: false };
export const THEY: Pronouns = { subject: 'they', object: 'them', possessive: 'their', reflexive: 'themself', plural: true };

/** Who is talked about: the people's full names, and what is known of their pronouns (full name -> pronouns). */
export interface Cast {
  names: readonly string[];
  /** A name of `names` that is not in the cast (the speaker, of everyone in town: townCast). */
  except?: string;
  /** Names in the cast after `names`. */
  more?: readonly string[];
  pronouns?: ReadonlyMap<string, Pronouns>;
}

/**
 * A names list's lookups: the full names, and each first name's full names in the list's order. Made once for a
 * list kept (a town's everyone, townCast): made at each sentence, the town of 10,000's talk built a set and a map of
 * 10,000 names a line, too big for V8's young generation (~45 MB of what its old generation took in an hour).
 */
interface NamesIndex {
  full: ReadonlySet<string>;
  byFirst: ReadonlyMap<string, readonly string[]>;
}
const namesIndexes = new WeakMap<readonly string[], NamesIndex>();

function namesIndexOf(names: readonly string[]): NamesIndex {
  let index = namesIndexes.get(names);
  if (index) return index;
  const byFirst = new Map<string, string[]>();
  for (const n of names) {
    const first = n.split(' ')[0];
    const list = byFirst.get(first);
    if (list) list.push(n);
    else byFirst.set(first, [n]);
  }
  index = { full: new Set(names), byFirst };
  namesIndexes.set(names, index);
  return index;
}

/** Whether the full name is in the cast. */
function inCast(cast: Cast, name: string): boolean {
  return (name !== cast.except && namesIndexOf(cast.names).full.has(name)) || (cast.more?.includes(name) ?? false);
}

/** The cast's first person with this first name, in the cast's order (`names`, then `more`). */
function firstNamed(cast: Cast, first: string): string | undefined {
  for (const n of namesIndexOf(cast.names).byFirst.get(first) ?? []) if (n !== cast.except) return n;
  return cast.more?.find((n) => n.split(' ')[0] === first);
}

const townNames = new WeakMap<ReadonlyMap<string, string>, readonly string[]>();

/** Everyone in town but `self` (by name), with their pronouns: the list of names is made once for the town's map of them. */
export function townCast(names: ReadonlyMap<string, string>, self: string, pronouns?: ReadonlyMap<string, Pronouns>): Cast {
  let list = townNames.get(names);
  if (!list) townNames.set(names, (list = [...names.values()]));
  return { names: list, except: self, pronouns };
}

const personaPronouns = new WeakMap<object, Pronouns | null>();

/**
 * A persona's pronouns, read from what its file says of it (its background, status and lifestyle are
 * about the persona: "He has lived in Smalltown…", "never misses his morning tea"). When the text says
 * neither (or both as often): with `guess`, what compromise knows of the first name (it loads compromise,
 * so the offline mind asks, not an LLM town's start); else, or when the name is unknown, they/them.
 */
export function pronounsOf(persona: { name: string; learned: string; currently?: string; lifestyle?: string }, guess = false): Pronouns {
  return statedPronouns(persona) ?? (guess ? genderOfFirstName(persona.name) : null) ?? THEY;
}

/** The pronouns a persona's own text uses for it, or null when it says neither he nor she more. */
export function statedPronouns(persona: { learned: string; currently?: string; lifestyle?: string }): Pronouns | null {
  if (personaPronouns.has(persona)) return personaPronouns.get(persona)!;
  // A revised status goes on with what is on its mind from yesterday: other people's news.
  const text = [persona.learned, (persona.currently ?? '').split(' Still on ')[0], persona.lifestyle ?? ''].join(' ');
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const he = count(/\b(he|him|his|himself)\b/gi);
  const she = count(/\b(she|her|hers|herself)\b/gi);
  const found = he > she ? HE : she > he ? SHE : null;
  personaPronouns.set(persona, found);
  return found;
}

/** Pronouns for a full name: the cast's, else what compromise knows of the first name (a male or female name), else unknown (null). */
function pronounsFor(name: string, cast: Cast): Pronouns | null {
  return cast.pronouns?.get(name) ?? genderOfFirstName(name);
}

function genderOfFirstName(name: string): Pronouns | null {
  const tags = tagsOf(name.split(' ')[0]);
  return tags.has('MaleName') ? HE : tags.has('FemaleName') ? SHE : null;
}

// ---- words ---------------------------------------------------------------------------------------

/** Words whose tags and verb forms are kept: a town's vocabulary fits, and a long run's stream of new words does not grow them for good. */
const WORDS_CACHED = 20_000;
const tagCache = new BoundedCache<string, Set<string>>(WORDS_CACHED);
/** compromise's tags for one word out of context, cached (names keep their case: "Will" the name, "will" the modal). */
function tagsOf(word: string): Set<string> {
  let tags = tagCache.get(word);
  if (!tags) {
    const doc = nlp(word).json() as Array<{ terms: Array<{ tags: string[] }> }>;
    tags = new Set(doc[0]?.terms[0]?.tags ?? []);
    tagCache.set(word, tags);
  }
  return tags;
}

/** Whether a word out of context is a plural noun ("students", "shelves"), not a verb ("plans"). */
export function isPluralNoun(word: string): boolean {
  const tags = tagsOf(word.toLowerCase());
  return tags.has('Plural') && !tags.has('Verb');
}

const ADVERBS = new Set(['also', 'often', 'still', 'always', 'never', 'now', 'usually', 'just', 'really', 'already', 'sometimes', 'even', 'only', 'not']);
const MODALS = new Set(['will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must']);
const PREPOSITIONS = new Set(['to', 'with', 'for', 'of', 'at', 'by', 'from', 'about', 'on', 'in', 'like', 'than', 'beside', 'near']);
/** Words that start a new subject: the verbs after them are not the last subject's. */
const OTHER_SUBJECTS = new Set(['it', 'we', 'who', 'which', 'that', 'everyone', 'everybody', 'nobody', 'someone', 'people', 'this', 'there']);

function isAdverb(word: string): boolean {
  const lower = word.toLowerCase();
  if (ADVERBS.has(lower)) return true;
  const tags = tagsOf(lower);
  return (tags.has('Adverb') || tags.has('Negative')) && !tags.has('Verb');
}

/** A finite verb, as a third person subject takes it: "runs", "is", "has", "will", "went" (not "run", "running"). */
function isFiniteThird(word: string): boolean {
  const lower = word.toLowerCase();
  if (MODALS.has(lower) || lower === "'s" || /n't$/.test(lower)) return true;
  const tags = tagsOf(lower);
  if (!tags.has('Verb') || tags.has('Gerund')) return false;
  if (tags.has('PastTense')) return true;
  return tags.has('PresentTense') && !tags.has('Infinitive');
}

/** A finite verb as "I" or "you" take it: "run", "am", "have", "will", "went". */
function isFiniteFirst(word: string): boolean {
  const lower = word.toLowerCase();
  if (/n't$/.test(lower)) return true;
  if (MODALS.has(lower) || ['am', 'are', 'was', 'were', "'m", "'re"].includes(lower)) return true;
  const tags = tagsOf(lower);
  if (!tags.has('Verb') || tags.has('Gerund') || (tags.has('Noun') && !tags.has('Infinitive'))) return false;
  return tags.has('PastTense') || tags.has('Infinitive');
}

type GrammaticalPerson = 'first' | 'second' | 'third' | 'plural';
const BE: Record<GrammaticalPerson, string> = { first: 'am', second: 'are', third: 'is', plural: 'are' };
const BE_PAST: Record<GrammaticalPerson, string> = { first: 'was', second: 'were', third: 'was', plural: 'were' };
const BE_SHORT: Record<GrammaticalPerson, string> = { first: "'m", second: "'re", third: "'s", plural: "'re" };
const verbCache = new BoundedCache<string, string>(WORDS_CACHED);
/** Negated auxiliaries: [third person, first person, second person or plural]. */
const NEGATED: Record<string, [string, string, string]> = {
  "isn't": ["isn't", 'am not', "aren't"],
  "aren't": ["isn't", 'am not', "aren't"],
  "wasn't": ["wasn't", "wasn't", "weren't"],
  "weren't": ["wasn't", "wasn't", "weren't"],
  "doesn't": ["doesn't", "don't", "don't"],
  "don't": ["doesn't", "don't", "don't"],
  "hasn't": ["hasn't", "haven't", "haven't"],
  "haven't": ["hasn't", "haven't", "haven't"],
};

/** A present or "be" verb made to agree with a subject of person `to`; modals and past tenses (but was/were) stay. */
export function agree(word: string, to: GrammaticalPerson): string {
  const lower = word.toLowerCase();
  let out: string;
  const negated = NEGATED[lower];
  if (negated) out = negated[to === 'third' ? 0 : to === 'first' ? 1 : 2];
  else if (/n't$/.test(lower)) out = lower;
  else if (['am', 'is', 'are'].includes(lower)) out = BE[to];
  else if (['was', 'were'].includes(lower)) out = BE_PAST[to];
  else if (["'m", "'s", "'re"].includes(lower)) out = BE_SHORT[to];
  else if (['has', 'have'].includes(lower)) out = to === 'third' ? 'has' : 'have';
  else if (['does', 'do'].includes(lower)) out = to === 'third' ? 'does' : 'do';
  else if (MODALS.has(lower) || tagsOf(lower).has('PastTense')) out = lower;
  else {
    const key = `${lower}|${to === 'third' ? 3 : 1}`;
    out = verbCache.get(key) ?? '';
    if (!out) {
      const forms = (nlp(lower).verbs().conjugate() as Array<{ Infinitive?: string; PresentTense?: string }>)[0];
      out = (to === 'third' ? forms?.PresentTense : forms?.Infinitive) || lower;
      verbCache.set(key, out);
    }
  }
  return word[0] === word[0].toUpperCase() && word[0] !== "'" ? capitalise(out) : out;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "The cafe is…" after "that": "the cafe is…"; names, "I" and the rest keep their capital. */
export function afterThat(sentence: string): string {
  return sentence.replace(/^(The|A|An|My|It|There|This|That|You|Your|He|She|They|His|Her|Their|We|Our)\b/, (w) => w.toLowerCase());
}

// ---- mentions ------------------------------------------------------------------------------------

interface Token {
  /** The text between the previous word and this one. */
  before: string;
  word: string;
}

function tokenize(text: string): { tokens: Token[]; tail: string } {
  const tokens: Token[] = [];
  const re = /[A-Za-z]+(?:'[A-Za-z]+)?|'[a-z]+\b/g;
  let cursor = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    tokens.push({ before: text.slice(cursor, m.index), word: m[0] });
    cursor = m.index + m[0].length;
  }
  return { tokens, tail: text.slice(cursor) };
}

type Case = 'subject' | 'object' | 'possessive' | 'independent' | 'reflexive';
interface Mention {
  at: number;
  /** Tokens the mention spans (a full name is two). */
  span: number;
  person: string | null;
  case: Case;
}

const PRONOUN_CASES: Record<string, [Case, 'he' | 'she' | 'they']> = {
  he: ['subject', 'he'],
  him: ['object', 'he'],
  his: ['possessive', 'he'],
  himself: ['reflexive', 'he'],
  she: ['subject', 'she'],
  hers: ['independent', 'she'],
  herself: ['reflexive', 'she'],
  they: ['subject', 'they'],
  them: ['object', 'they'],
  their: ['possessive', 'they'],
  theirs: ['independent', 'they'],
  themself: ['reflexive', 'they'],
  themselves: ['reflexive', 'they'],
};

/** Whether the mention at token i (spanning `span`) is a subject: a finite verb follows (adverbs allowed), and no preposition leads to it. */
function isSubjectAt(tokens: Token[], i: number, span: number): boolean {
  const prev = tokens[i - 1];
  if (prev && PREPOSITIONS.has(prev.word.toLowerCase()) && !/[,;:.!?]/.test(tokens[i].before)) return false;
  let j = i + span;
  if (/[.,;:!?()]/.test(tokens[j]?.before ?? '.')) return false;
  while (tokens[j] && isAdverb(tokens[j].word) && !/[.,;:!?]/.test(tokens[j + 1]?.before ?? '.')) j++;
  return tokens[j] !== undefined && !/[.;:!?()]/.test(tokens[j].before) && isFiniteThird(tokens[j].word);
}

/** People named or referred to by pronoun in the text, each with its case. `topic`: whom a pronoun refers to before anyone is named. */
function mentionsIn(tokens: Token[], cast: Cast, topic: string | null): Mention[] {
  const out: Mention[] = [];
  const named: string[] = topic ? [topic] : [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].word;
    const bare = w.replace(/'s$/, '');
    const two = i + 1 < tokens.length && tokens[i + 1].before === ' ' ? `${w} ${tokens[i + 1].word.replace(/'s$/, '')}` : '';
    const person = two && inCast(cast, two) ? two : /^[A-Z]/.test(bare) ? (firstNamed(cast, bare) ?? (inCast(cast, bare) ? bare : null)) : null;
    if (person) {
      const span = person === two ? 2 : 1;
      const last = tokens[i + span - 1].word;
      const c: Case = /'s$/.test(last) ? 'possessive' : isSubjectAt(tokens, i, span) ? 'subject' : 'object';
      out.push({ at: i, span, person, case: c });
      named.push(person);
      i += span - 1;
      continue;
    }
    const lower = w.toLowerCase();
    let pc = PRONOUN_CASES[lower];
    if (lower === 'her') {
      const next = tokens[i + 1];
      const tags = next && !/[.,;:!?]/.test(next.before) ? tagsOf(next.word.toLowerCase()) : new Set<string>();
      const noun = tags.has('Noun') || tags.has('Adjective') || tags.has('Value') || (tags.has('Infinitive') && !tags.has('Preposition'));
      pc = [noun && !PREPOSITIONS.has(next.word.toLowerCase()) ? 'possessive' : 'object', 'she'];
    }
    if (!pc) continue;
    const [c, kind] = pc;
    // The latest person named whom the pronoun fits; one whose pronouns are unknown fits any.
    let who: string | null = null;
    for (let k = named.length - 1; k >= 0; k--) {
      const p = pronounsFor(named[k], cast);
      if (p === null || p.subject === kind) {
        who = named[k];
        break;
      }
    }
    out.push({ at: i, span: 1, person: who, case: c });
  }
  return out;
}

// ---- rendering -----------------------------------------------------------------------------------

const FIRST: Record<Case, string> = { subject: 'I', object: 'me', possessive: 'my', independent: 'mine', reflexive: 'myself' };
const SECOND: Record<Case, string> = { subject: 'you', object: 'you', possessive: 'your', independent: 'yours', reflexive: 'yourself' };

function sentenceStart(tokens: Token[], i: number): boolean {
  return i === 0 ? /^\s*$/.test(tokens[0].before) : /[.!?]\s*$/.test(tokens[i].before);
}

/**
 * Says a text about people as `speaker` to `listener`: references to the speaker become I / me / my /
 * mine / myself, to the listener you / your / yours / yourself, and the verbs whose subject changed
 * agree ("Isabella wants to invite everyone she meets" said by Isabella: "I want to invite everyone I
 * meet"). `topic`: whom a leading "She"/"He" means. Everyone else keeps their name and pronouns.
 */
export function speak(text: string, roles: { speaker?: string; listener?: string; topic?: string }, cast: Cast): string {
  const { tokens, tail } = tokenize(text);
  if (tokens.length === 0) return text;
  const topic = roles.topic ?? roles.speaker ?? null;
  const mentions = mentionsIn(tokens, cast, topic);
  const words = tokens.map((t) => t.word);
  const drop = new Set<number>();
  let agreeing: GrammaticalPerson | null = null;
  let verbAt = -1;
  const byAt = new Map(mentions.map((m) => [m.at, m]));
  for (let i = 0; i < tokens.length; i++) {
    const m = byAt.get(i);
    if (m) {
      const role = m.person === null ? null : m.person === roles.speaker ? FIRST : m.person === roles.listener ? SECOND : null;
      if (m.case === 'subject') agreeing = role === FIRST ? 'first' : role === SECOND ? 'second' : null;
      if (!role) {
        i += m.span - 1;
        continue;
      }
      let said = role[m.case];
      // "a friend of me" is "a friend of mine".
      if (
        m.case === 'object' &&
        role === FIRST &&
        tokens[i - 1]?.word === 'of' &&
        /^(friend|neighbour|neighbor|colleague|cousin)s?$/.test(tokens[i - 2]?.word ?? '')
      )
        said = 'mine';
      if (sentenceStart(tokens, i)) said = capitalise(said);
      words[i] = said;
      for (let k = 1; k < m.span; k++) drop.add(i + k);
      i += m.span - 1;
      if (m.case === 'subject') verbAt = i + 1;
      continue;
    }
    const lower = tokens[i].word.toLowerCase();
    // Another subject (a pronoun, someone not in the cast followed by a verb) takes the verbs after it.
    if (/[.;:!?]/.test(tokens[i].before) || OTHER_SUBJECTS.has(lower) || (/^[A-Z]/.test(tokens[i].word) && i > 0 && isSubjectAt(tokens, i, 1))) {
      if (i !== verbAt) agreeing = null;
    }
    if (!agreeing) continue;
    if (i === verbAt) {
      if (isAdverb(tokens[i].word)) {
        verbAt++;
        continue;
      }
      if (isFiniteThird(tokens[i].word)) words[i] = agree(tokens[i].word, agreeing);
      verbAt = -1;
      continue;
    }
    // "… and wants": a second verb of the same subject.
    if (['and', 'or', 'but'].includes(lower)) verbAt = i + 1;
  }
  let out = '';
  tokens.forEach((t, i) => {
    if (drop.has(i)) return;
    out += t.before + words[i];
  });
  return out + tail;
}

/** Someone a reported line is said by or to. */
export interface Party {
  name: string;
  pronouns: Pronouns;
}

/** How report() names people and reads "you"; left out, as the town reports what its residents say. */
export interface ReportStyle {
  /**
   * How a person is named after the first time: by their pronouns (the default: "… and he wants Klaus's vote"), or by
   * their first name ("… whom Latoya has known"), for a text whose people's pronouns may not be known.
   */
  later?: 'pronoun' | 'first name';
  /**
   * The line is a statement to the listener about themself (the Smallville reference's whispers: "You and Sam are close;
   * you two sometimes talk"), not a line of talk: "you" opening a clause, or before adverbs and a verb, is a subject ("For
   * planning, you frequent the cafe", "you sometimes spend"), the word after it is its verb even where the tagger reads
   * it otherwise ("frequent"), a verb after "to <verb> and" is not the subject's ("to work and think"), "you'd" is
   * "would", and "you two" / "you both" are the listener and whoever is with them: "the two of them".
   */
  aboutListener?: boolean;
}

const SPEAKER_WORDS = new Set(['me', 'my', 'mine', 'myself', "i'm", "i've", "i'll", "i'd"]);
const LISTENER_WORDS = new Set(['you', 'your', 'yours', 'yourself', "you're", "you've", "you'll"]);

/**
 * A line said by `speaker` to `listener` as a standalone third-person fact: "I am running for mayor and
 * I want your vote" said by Tomas to Klaus is "Tomas Varga is running for mayor and he wants Klaus's
 * vote". The first reference to each is their full name (for the listener, "Klaus's" as a possessive),
 * later ones their pronouns, or their first names (`style.later`). With no speaker, "I" stays: a
 * second-person text about the listener ("You like Sam") is put in the third person ("Latoya Williams likes Sam").
 */
export function report(line: string, speaker: Party | undefined, listener?: Party, style: ReportStyle = {}): string {
  const { tokens, tail } = tokenize(line);
  const words = tokens.map((t) => t.word);
  const named = { speaker: false, listener: false };
  let agreeing: GrammaticalPerson | null = null;
  let verbAt = -1;
  /** Whether the verb looked for at verbAt is straight after its subject ("you frequent"), not after "and". */
  let subjectsVerb = false;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].word;
    const lower = w.toLowerCase();
    const toListener = listener && (LISTENER_WORDS.has(lower) || (style.aboutListener === true && lower === "you'd"));
    const role = speaker && (w === 'I' || SPEAKER_WORDS.has(lower)) ? 'speaker' : toListener ? 'listener' : null;
    if (role === 'listener' && style.aboutListener && lower === 'you' && /^(two|both)$/i.test(tokens[i + 1]?.word ?? '') && tokens[i + 1].before === ' ') {
      // "you two are close": the listener and whoever is with them.
      words[i] = sentenceStart(tokens, i) ? 'The' : 'the';
      words[i + 1] = 'two of them';
      agreeing = null;
      i++;
      continue;
    }
    if (role) {
      const said = referenceTo(role === 'speaker' ? speaker! : listener!, tokens, i, named[role], style);
      named[role] = true;
      words[i] = said.words;
      if (said.subject) {
        // "You and Sam are housemates and have known each other": a subject of two takes plural verbs.
        const joined = style.aboutListener && /^(and|or)$/i.test(tokens[i + 1]?.word ?? '') && !/[.,;:!?]/.test(tokens[i + 1].before);
        agreeing = said.plural || joined ? 'plural' : 'third';
        verbAt = said.contracted ? -1 : i + 1;
        subjectsVerb = true;
      }
      continue;
    }
    if (/[.;:!?]/.test(tokens[i].before) || OTHER_SUBJECTS.has(lower) || ['he', 'she', 'they', 'we'].includes(lower)) {
      if (i !== verbAt) agreeing = null;
    }
    if (!agreeing) continue;
    if (i === verbAt) {
      if (isAdverb(w)) {
        verbAt++;
        continue;
      }
      if (isFiniteFirst(w)) words[i] = agree(w, agreeing);
      else if (style.aboutListener && subjectsVerb && agreeing === 'third' && isVerbOutOfTags(tokens, i)) words[i] = regularThird(w);
      verbAt = -1;
      continue;
    }
    if (['and', 'or', 'but'].includes(lower) && !(style.aboutListener && afterInfinitive(tokens, i))) {
      verbAt = i + 1;
      subjectsVerb = false;
    }
  }
  return tokens.map((t, i) => t.before + words[i]).join('') + tail;
}

/** Words before a subject that open its clause: "because you", "and you". */
const CLAUSE_OPENERS = new Set([
  'and',
  'but',
  'or',
  'so',
  'that',
  'because',
  'when',
  'if',
  'as',
  'while',
  'although',
  'though',
  'since',
  'where',
  'how',
  'what',
  'why',
  'until',
]);

/** Whether "you" at token i opens a clause (the line's start, after a comma, a colon, a dash or a conjunction) or comes before adverbs and a verb. */
function opensClause(tokens: Token[], i: number): boolean {
  if (i === 0 || /(?:[.;,!?:]|--?|—)\s*$/.test(tokens[i].before) || CLAUSE_OPENERS.has(tokens[i - 1].word.toLowerCase())) return true;
  let j = i + 1;
  while (tokens[j] && isAdverb(tokens[j].word)) j++;
  return j > i + 1 && tokens[j] !== undefined && isFiniteFirst(tokens[j].word);
}

/**
 * Whether the word at token i, in a verb's place, is a verb that the tagger reads out of context as an adjective only
 * ("you frequent the cafe", "you own a shop"): not a participle ("you used to"), nor a word before the verb ("you alone know").
 */
function isVerbOutOfTags(tokens: Token[], i: number): boolean {
  const word = tokens[i].word.toLowerCase();
  const tags = tagsOf(word);
  return tags.has('Adjective') && !tags.has('Noun') && !tags.has('Verb') && !/ed$/.test(word) && !isFiniteFirst(tokens[i + 1]?.word ?? '');
}

/** The third person of a regular verb: "frequents", "tries", "watches". */
function regularThird(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z|o)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** Whether the "and" at token i joins infinitives ("to work and think", "to hang out and write and think"), not its subject's verbs. */
function afterInfinitive(tokens: Token[], i: number): boolean {
  for (let j = i - 1; j > 0 && !/[.,;:!?]/.test(tokens[j + 1].before); j--) {
    if (tokens[j - 1].word.toLowerCase() === 'to') return tagsOf(tokens[j].word.toLowerCase()).has('Infinitive');
  }
  return false;
}

/** How the reference at token i ("I", "my", "you've", …) to `who` is said in the third person, and whether it is a subject whose verbs agree. */
function referenceTo(
  who: Party,
  tokens: Token[],
  i: number,
  named: boolean,
  style: ReportStyle,
): { words: string; subject: boolean; plural: boolean; contracted: boolean } {
  const lower = tokens[i].word.toLowerCase();
  const cap = (s: string) => (sentenceStart(tokens, i) ? capitalise(s) : s);
  const [stem, suffix] = lower.includes("'") ? lower.split("'") : [lower, ''];
  const subject =
    stem === 'i' ||
    (stem === 'you' &&
      (suffix !== '' || isSubjectAt(tokens, i, 1) || isFiniteFirst(tokens[i + 1]?.word ?? '') || (style.aboutListener === true && opensClause(tokens, i))));
  const c: Case =
    stem === 'i' || subject
      ? 'subject'
      : ['my', 'your'].includes(stem)
        ? 'possessive'
        : ['mine', 'yours'].includes(stem)
          ? 'independent'
          : ['myself', 'yourself'].includes(stem)
            ? 'reflexive'
            : 'object';
  const p = who.pronouns;
  const pronoun = { subject: p.subject, object: p.object, possessive: p.possessive, independent: `${p.possessive}s`, reflexive: p.reflexive }[c];
  const byPronoun = named && style.later !== 'first name';
  const name = named ? firstName(who.name) : who.name;
  let said = byPronoun || c === 'reflexive' ? cap(pronoun) : c === 'possessive' || c === 'independent' ? `${name}'s` : name;
  const plural = byPronoun && p.plural;
  // "I'm" is "Tomas Varga is" (a contraction on a name reads badly: "Tomas Varga'll").
  if (suffix) said += ` ${{ m: plural ? 'are' : 'is', re: plural ? 'are' : 'is', ve: plural ? 'have' : 'has', ll: 'will', d: 'would' }[suffix] ?? suffix}`;
  return { words: said, subject: c === 'subject', plural, contracted: suffix !== '' };
}

function firstName(fullName: string): string {
  return fullName.split(' ')[0];
}

/** What someone was asked, taken up by them: "What would you do if your stove caught fire?" -> "What would I do if my stove caught fire?" */
export function takenUp(question: string): string {
  const { tokens, tail } = tokenize(question);
  const words = tokens.map((t) => t.word);
  for (let i = 0; i < tokens.length; i++) {
    const lower = tokens[i].word.toLowerCase();
    const cap = (s: string) => (sentenceStart(tokens, i) ? capitalise(s) : s);
    if (lower === 'your') words[i] = cap('my');
    else if (lower === 'yours') words[i] = cap('mine');
    else if (lower === 'yourself') words[i] = cap('myself');
    else if (lower === 'you') {
      const prev = tokens[i - 1]?.word.toLowerCase() ?? '';
      // "you" after a verb or a preposition is an object ("would happen to you"), unless a verb follows it ("do you think").
      const next = tokens[i + 1]?.word ?? '';
      const subject = isFiniteFirst(next) || (!PREPOSITIONS.has(prev) && !/^(tell|ask|give|show|help|invite|meet)s?$/.test(prev));
      words[i] = subject ? 'I' : 'me';
      if (subject && ['are', 'were'].includes(next.toLowerCase())) words[i + 1] = next.toLowerCase() === 'are' ? 'am' : 'was';
      if (subject && ['are', 'were'].includes(prev) && !/[.,;:!?]/.test(tokens[i].before)) words[i - 1] = prev === 'are' ? 'am' : 'was';
      if (subject && sentenceStart(tokens, i)) words[i] = 'I';
    }
  }
  return tokens.map((t, i) => t.before + words[i]).join('') + tail;
}
