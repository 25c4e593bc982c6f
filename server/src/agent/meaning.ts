// What a memory's text means, read once and kept (by its text) for every later reader: whether it tells
// of a gathering (what, who hosts it, when, where, for whom), whether it is told in confidence, and whom it
// is about. Telling, inviting, planning, replying and importance read this structure, never the phrase.
//
// The grammar, on compromise's part-of-speech tags (server/src/agent/README.md, "Reading meaning"):
// - A gathering is a noun phrase (with a determiner or a possessive, or of two words or more, headed by a
//   common noun) that
//   1. is the object of a host verb (HOST_VERBS: "is throwing a party", "runs a book club", "is organising
//      a protest"), or
//   2. is the object of an attendance verb (ATTEND_VERBS, with an optional "to": "plans to go to the party"), or
//   3. is the subject of an event verb or of "is/will be" + a place or time ("the book club meets at …",
//      "a protest will be held …", "Rosa's wedding is at the chapel …", "there will be a dinner …"),
//   and the sentence gives a clock time (TIME) and a day (DAY). A gathering with a noun but no time or no
//   day is `unplaced`: said (counted by callers), never silently taken as an event.
// - Audience: open when a free-choice or universal pronoun ("anyone", "everyone", "all", "whoever", "the
//   public", "the whole town") is among its words, or it is "open to" someone; invited when it says so
//   ("invitation only", "invite-only", "private", "just close friends", or "invites" named people);
//   otherwise unspecified.
// - A secret: a verb of telling (TELL_VERBS) negated ("hasn't told anyone", "has not mentioned it to
//   anyone yet") or with "no one"/"nobody" for object ("told no one"), keeping quiet or to oneself ("is
//   keeping it quiet", "keeps it under wraps", "keeping it to herself"), or a confidence named ("between
//   us", "secret", "confidential", "in confidence").
// - Whom it is about: the first person compromise finds, else the sentence's first proper noun.
// These are classes of the language (verbs of hosting, of telling, pronouns of quantity), not the wording
// of any scenario; tests/unit/meaning.test.ts holds several phrasings of each family and their controls.
import { nlp } from './nlp';

export type Audience = 'open' | 'invited' | 'unspecified';

/** A day as the text gives it, resolved against when the text was heard (gatheringIn). */
export type DayRef = { kind: 'date'; month: number; dayOfMonth: number } | { kind: 'weekday'; weekday: number } | { kind: 'relative'; daysAhead: number };

export interface GatheringMeaning {
  /** The noun phrase without its determiner: "Valentine's Day party", "book club", "farewell dinner". */
  kind: string;
  /** The person who hosts it, as named ("Isabella Rivera", "Rosa"), when the text says. */
  host: string | null;
  audience: Audience;
  /** Minute of the day, 0..1439, or null when no clock time is given. */
  minuteOfDay: number | null;
  day: DayRef | null;
  /** The text after "at"/"in"/"outside" following the noun, as said ("Hobbs Cafe", "the library"). */
  placeText: string | null;
  /** Told in the past tense ("threw a party"): over by the time it is told. */
  past: boolean;
  /** Both a time and a day: it can be placed in the calendar. */
  placed: boolean;
}

export interface Meaning {
  gathering: GatheringMeaning | null;
  secret: boolean;
  /** Asks to be passed on: an open gathering, or news meant for everyone. */
  open: boolean;
  /** Whom it is about (the first person named), or null. */
  subject: string | null;
}

/** Verbs whose object is a gathering the subject puts on. */
const HOST_VERBS = new Set([
  'host',
  'throw',
  'organise',
  'organize',
  'hold',
  'run',
  'start',
  'have',
  'give',
  'plan',
  'arrange',
  'stage',
  'lead',
  'launch',
  'put',
  'set',
  'convene',
  'call',
]);
/** Verbs whose object is a gathering the subject goes to. */
const ATTEND_VERBS = new Set(['go', 'come', 'attend', 'join', 'invite', 'visit']);
/** Verbs whose subject is a gathering taking place. */
const EVENT_VERBS = new Set(['meet', 'take', 'happen', 'begin', 'start', 'open', 'kick', 'run', 'hold', 'gather']);
/** Verbs of telling: negated, they keep a thing quiet. */
const TELL_VERBS = new Set(['tell', 'mention', 'say', 'share', 'announce', 'reveal', 'breathe', 'speak', 'talk', 'confide', 'disclose', 'inform', 'let']);
/** Universal and free-choice pronouns: an audience of anyone. */
const ANYONE = new RegExp(
  '\\b(every(one|body)|any(one|body)|all welcome|whoever|the public|the whole (town|village|street|neighbourhood|neighborhood)|' +
    'open to|all (are|is) welcome|all of (the )?town)\\b',
  'i',
);
const INVITE_ONLY = new RegExp(
  '\\b(invit(e|ation)[- ]only|by invitation|private|guest list|only (for )?(invited|close|family|friends|members|a few)|' +
    'just (for )?(close )?(friends|family))\\b',
  'i',
);
const CONFIDENCE = /\b(between (us|you and me|ourselves)|secret\w*|confidential\w*|in confidence|under wraps|hush)\b/i;
const KEEP_QUIET = new RegExp(
  '\\bkeep\\w*\\s+(it|this|that|the news|things|the plan|\\w+ plans?)?\\s*' +
    '(quiet|to (him|her|them|your|my|our)sel(f|ves)|under wraps|hidden|a secret|from (everyone|anyone|people|the town))\\b',
  'i',
);
const NO_ONE = /^(no one|no-one|nobody|none|not a soul)\b/i;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const MONTH = MONTHS.join('|');
const DATE_FORMS = [
  new RegExp(`\\b(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i'),
  new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\b`, 'i'),
];
const CLOCK = /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/i;
const OCLOCK = new RegExp(`\\b(\\d{1,2}|${NUMBER_WORDS.join('|')})\\s+o['’]?clock\\b(?:\\s+(in the (morning|afternoon|evening)|at night|tonight))?`, 'i');
const H24 = /\b([01]?\d|2[0-3]):([0-5]\d)\b/;

/** Clock times in the usual English forms: "5pm", "5:30 p.m.", "noon", "seven o'clock in the evening", "17:00". */
export function readClock(text: string): number | null {
  const c = CLOCK.exec(text);
  if (c) {
    let h = Number(c[1]) % 12;
    if (/^p/i.test(c[3])) h += 12;
    return h * 60 + Number(c[2] ?? 0);
  }
  if (/\b(noon|midday)\b/i.test(text)) return 12 * 60;
  if (/\bmidnight\b/i.test(text)) return 0;
  const o = OCLOCK.exec(text);
  if (o) {
    const n = /^\d/.test(o[1]) ? Number(o[1]) : NUMBER_WORDS.indexOf(o[1].toLowerCase());
    let h = n % 12;
    const part = o[2]?.toLowerCase() ?? '';
    // Without "in the morning", an hour from 1 to 7 o'clock is taken as the afternoon or evening (when people meet).
    if (/afternoon|evening|night/.test(part) || (!/morning/.test(part) && h >= 1 && h <= 7)) h += 12;
    return h * 60;
  }
  const t = H24.exec(text);
  if (t) return Number(t[1]) * 60 + Number(t[2]);
  return null;
}

/** The day a text names: a date, a weekday, or one relative to when it is heard ("today", "tonight", "tomorrow"). */
export function readDay(text: string): DayRef | null {
  const a = DATE_FORMS[0].exec(text);
  if (a) return { kind: 'date', month: MONTHS.indexOf(a[1].toLowerCase()), dayOfMonth: Number(a[2]) };
  const b = DATE_FORMS[1].exec(text);
  if (b) return { kind: 'date', month: MONTHS.indexOf(b[2].toLowerCase()), dayOfMonth: Number(b[1]) };
  if (/\bthe day after tomorrow\b/i.test(text)) return { kind: 'relative', daysAhead: 2 };
  if (/\btomorrow\b/i.test(text)) return { kind: 'relative', daysAhead: 1 };
  if (/\b(today|tonight|this (morning|afternoon|evening))\b/i.test(text)) return { kind: 'relative', daysAhead: 0 };
  const w = new RegExp(`\\b(${WEEKDAYS.join('|')})s?\\b`, 'i').exec(text);
  if (w) return { kind: 'weekday', weekday: WEEKDAYS.indexOf(w[1].toLowerCase()) };
  return null;
}

interface Term {
  text: string;
  lower: string;
  tags: Set<string>;
  /** Punctuation after it ends a phrase. */
  stop: boolean;
  infinitive: string | null;
  negative: boolean;
}

const cache = new Map<string, Meaning>();
const CACHE_LIMIT = 20_000;
/** How many texts named a gathering the reader could not place in time (no clock time or no day): reported, not dropped silently. */
export const readerCounts = { read: 0, gatherings: 0, unplaced: 0 };

/** What a text means (memoised by text: a memory is read once, however many times it is told or planned on). */
export function readMeaning(text: string): Meaning {
  const hit = cache.get(text);
  if (hit) return hit;
  const meaning = read(text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, meaning);
  readerCounts.read++;
  if (meaning.gathering) {
    readerCounts.gatherings++;
    if (!meaning.gathering.placed) readerCounts.unplaced++;
  }
  return meaning;
}

// The cheap gate: compromise costs milliseconds on a long line, and most memories ("X is sleeping") name no
// time, day, audience or confidence, so there is nothing for the grammar to find in them.
const MAY_BE_SECRET = /n't|\bnot\b|\bno\b|nobody|\bnever\b|secret|quiet|between|confiden|wraps|hush|\bkeep|to (him|her|them)sel/i;
/** A sentence's leading capitalised words (its subject when it is a name), for the lines the gate spares the parser. */
const LEADING_NAME = /^([A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*)\b/;
const FUNCTION_WORDS = new Set([
  'The',
  'A',
  'An',
  'There',
  'This',
  'That',
  'It',
  'He',
  'She',
  'They',
  'We',
  'I',
  'You',
  'Our',
  'My',
  'His',
  'Her',
  'Their',
  'Between',
  'Later',
  'Next',
  'After',
]);
const NOTHING: Meaning = { gathering: null, secret: false, open: false, subject: null };

function read(text: string): Meaning {
  // Each sentence (or clause after ";") read alone and cached: a talk's summary repeats the same topics.
  const pieces = text.split(/(?<=[.!?;])\s+/);
  let gathering: GatheringMeaning | null = null;
  let secret = false;
  let open = false;
  let subject: string | null = null;
  for (const [i, piece] of pieces.entries()) {
    const m = readPiece(piece);
    if (i === 0) subject = m.subject;
    if (!gathering && m.gathering) {
      // A time or day said in another sentence of the same text still places it ("… on Friday. It starts at 7pm.").
      const minute = m.gathering.minuteOfDay ?? readClock(text);
      const day = m.gathering.day ?? readDay(text);
      gathering = { ...m.gathering, minuteOfDay: minute, day, placed: minute !== null && day !== null };
    }
    secret ||= m.secret;
    open ||= m.open;
  }
  if (gathering && (ANYONE.test(text) || INVITE_ONLY.test(text)) && gathering.audience === 'unspecified')
    gathering = { ...gathering, audience: ANYONE.test(text) ? 'open' : 'invited' };
  if (gathering?.audience === 'open') open = true;
  if (secret) open = false;
  return gathering || secret || open || subject ? { gathering, secret, open, subject } : NOTHING;
}

const pieceCache = new Map<string, Meaning>();

function readPiece(text: string): Meaning {
  const hit = pieceCache.get(text);
  if (hit) return hit;
  const meaning = parsePiece(text);
  if (pieceCache.size >= CACHE_LIMIT) pieceCache.clear();
  pieceCache.set(text, meaning);
  return meaning;
}

function parsePiece(text: string): Meaning {
  const minute = readClock(text);
  const day = readDay(text);
  if (minute === null && day === null && !MAY_BE_SECRET.test(text) && !ANYONE.test(text)) {
    const name = LEADING_NAME.exec(text)?.[1];
    return name && !FUNCTION_WORDS.has(name.split(' ')[0]) ? { ...NOTHING, subject: name } : NOTHING;
  }
  const doc = nlp(text);
  const sentences = termsOf(doc);
  const people = doc.people().out('array') as string[];
  const terms = sentences.flat();
  const subject = people[0]?.replace(/'s$/, '') ?? (terms[0] && isName(terms[0]) ? terms[0].text.replace(/[,;:.!?]+$/, '').replace(/'s$/, '') : null);
  const secret = CONFIDENCE.test(text) || KEEP_QUIET.test(text) || sentences.some(negatedTelling);
  let gathering: GatheringMeaning | null = null;
  for (const s of sentences) {
    const found = gatheringOf(s, text);
    if (found) {
      gathering = { ...found, minuteOfDay: minute, day, placed: minute !== null && day !== null };
      break;
    }
  }
  const open = (gathering?.audience === 'open' || (!gathering && ANYONE.test(text))) && !secret;
  return { gathering, secret, open, subject };
}

function termsOf(doc: ReturnType<typeof nlp>): Term[][] {
  const json = doc.json({ terms: { tags: true } }) as Array<{ terms: Array<{ text: string; tags: string[]; post: string }> }>;
  const verbs = doc.verbs().json() as Array<{ text: string; verb?: { infinitive?: string; negative?: boolean } }>;
  // compromise gives each verb phrase's infinitive; the main verb is its last word.
  const lemmas = new Map<string, { infinitive: string; negative: boolean }>();
  for (const v of verbs) {
    const words = v.text.replace(/[.,;:!?]+$/, '').split(/\s+/);
    const last = words[words.length - 1]?.toLowerCase();
    const inf = v.verb?.infinitive?.split(/\s+/)[0]?.toLowerCase();
    if (last && inf) lemmas.set(last, { infinitive: inf, negative: v.verb?.negative === true });
  }
  return json.map((s) =>
    s.terms.map((t) => {
      const lower = t.text.toLowerCase();
      const lemma = t.tags.includes('Verb') ? lemmas.get(lower) : undefined;
      return {
        text: t.text,
        lower,
        tags: new Set(t.tags),
        stop: /[,;:.!?]/.test(t.post ?? ''),
        infinitive: lemma?.infinitive ?? (t.tags.includes('Verb') ? lower : null),
        negative: lemma?.negative ?? false,
      };
    }),
  );
}

/** A verb of telling, negated or with "no one" for object. */
function negatedTelling(s: Term[]): boolean {
  for (const [i, t] of s.entries()) {
    if (!t.infinitive || !TELL_VERBS.has(t.infinitive)) continue;
    // "let on" only: "let" alone is not telling.
    if (t.infinitive === 'let' && s[i + 1]?.lower !== 'on') continue;
    if (t.negative) return true;
    const before = s.slice(Math.max(0, i - 3), i).map((x) => x.lower);
    if (before.some((w) => w === 'not' || w === 'never' || w.endsWith("n't"))) return true;
    const after = s
      .slice(i + 1, i + 5)
      .map((x) => x.lower)
      .join(' ')
      .replace(/^(it|this|that|anything|a word|the news)\s+(to\s+)?/, '');
    if (NO_ONE.test(after)) return true;
  }
  return false;
}

interface NounPhrase {
  start: number;
  end: number;
  determined: boolean;
  /** The owner when it opens with a name's possessive ("Rosa's wedding"). */
  owner: string | null;
  words: string[];
}

/** Prepositions the tagger sometimes calls adjectives ("a protest outside Town Hall", "a protest against …"). */
const PREPOSITIONS = new Set(['outside', 'inside', 'near', 'behind', 'opposite', 'against', 'beside', 'about', 'with', 'for', 'at', 'in', 'on', 'by']);
const DETERMINERS = new Set(['a', 'an', 'the', 'his', 'her', 'their', 'our', 'my', 'its', 'this', 'that', 'another', 'some']);

/** The noun phrase from term i: a determiner or possessive, then words up to a preposition, verb, conjunction, time or punctuation; headed by a common noun. */
function nounPhraseAt(s: Term[], i: number): NounPhrase | null {
  let k = i;
  let determined = false;
  let owner: string | null = null;
  if (s[k] && (DETERMINERS.has(s[k].lower) || (s[k].tags.has('Possessive') && s[k].tags.has('Person')))) {
    determined = true;
    if (s[k].tags.has('Possessive') && !DETERMINERS.has(s[k].lower)) owner = s[k].text.replace(/'s$/, '');
    if (s[k].stop) return null;
    k++;
  }
  const words: string[] = [];
  const start = k;
  while (k < s.length) {
    const t = s[k];
    if (
      PREPOSITIONS.has(t.lower) ||
      t.tags.has('Preposition') ||
      t.tags.has('Conjunction') ||
      t.tags.has('Pronoun') ||
      t.tags.has('Time') ||
      t.tags.has('Determiner')
    )
      break;
    if (t.tags.has('Verb') && !t.tags.has('Noun')) break;
    if (t.tags.has('Value') || t.tags.has('Month') || t.tags.has('WeekDay')) break;
    words.push(t.text);
    k++;
    if (t.stop) break;
  }
  // A modifier the tagger calls an adjective ("a protest against …") ends the phrase at its last noun.
  while (words.length > 0 && !(s[k - 1].tags.has('Noun') && !s[k - 1].tags.has('Adjective'))) {
    words.pop();
    k--;
  }
  if (words.length === 0) return null;
  const head = s[k - 1];
  if (!head.tags.has('Noun') || head.tags.has('ProperNoun') || head.tags.has('Person') || head.tags.has('Pronoun')) return null;
  if (!determined && words.length < 2) return null;
  return { start, end: k, determined, owner, words: words.map((w) => w.replace(/[,;:.!?]+$/, '')) };
}

/** The gathering of one sentence, by the three patterns of the header. */
function gatheringOf(s: Term[], text: string): Omit<GatheringMeaning, 'minuteOfDay' | 'day' | 'placed'> | null {
  for (const [i, t] of s.entries()) {
    // "an invitation to the party", "invited to her wedding": what one is invited to.
    if (/^invit(ation|e)s?$/.test(t.lower) && !t.infinitive && s[i + 1]?.lower === 'to') {
      const np = nounPhraseAt(s, i + 2);
      if (np) return withAudience(np, np.owner ?? ownerBefore(s, i), false, s, text);
    }
    if (!t.infinitive) continue;
    let np: NounPhrase | null = null;
    let host: string | null = null;
    const past = t.tags.has('PastTense') && !t.tags.has('Passive');
    if (HOST_VERBS.has(t.infinitive)) {
      // "put on a play", "set up a stall": the particle is part of the verb.
      const j = i + 1 + (s[i + 1] && /^(on|up|together)$/.test(s[i + 1].lower) ? 1 : 0);
      np = nounPhraseAt(s, j);
      if (np) host = np.owner ?? subjectBefore(s, i);
    }
    if (!np && ATTEND_VERBS.has(t.infinitive)) {
      const j = i + 1 + (s[i + 1]?.lower === 'to' ? 1 : 0);
      np = nounPhraseAt(s, j);
      if (np) host = np.owner ?? inviterIn(s);
    }
    if (!np && (EVENT_VERBS.has(t.infinitive) || t.infinitive === 'be' || t.tags.has('Copula'))) {
      const before = phraseEndingAt(s, i);
      const next = s[i + 1];
      const eventVerb = EVENT_VERBS.has(t.infinitive) && (t.infinitive !== 'take' || next?.lower === 'place');
      const beAt = next && /^(at|on|in|outside|from|tonight|tomorrow|today)$/.test(next.lower);
      if (before && (eventVerb || beAt)) {
        np = before;
        host = np.owner;
      } else if (t.infinitive === 'be' && i > 0 && s.slice(Math.max(0, i - 2), i).some((x) => x.lower === 'there')) {
        np = nounPhraseAt(s, i + 1);
        if (np) host = np.owner;
      }
    }
    if (!np) continue;
    return withAudience(np, host, past, s, text);
  }
  // A notice with no verb ("A reading at the library on March 2 at 7pm"): its first noun phrase, when a place follows it.
  if (!s.some((t) => t.tags.has('Verb') && !t.tags.has('Noun'))) {
    for (let i = 0; i < s.length; i++) {
      const np = nounPhraseAt(s, i);
      if (np && s[np.end] && /^(at|in|outside)$/.test(s[np.end].lower)) return withAudience(np, np.owner, false, s, text);
      if (np) break;
    }
  }
  return null;
}

function withAudience(np: NounPhrase, host: string | null, past: boolean, s: Term[], text: string): Omit<GatheringMeaning, 'minuteOfDay' | 'day' | 'placed'> {
  {
    return {
      kind: np.words.join(' ').replace(/^(a|an|the)\s+/i, ''),
      host,
      audience: ANYONE.test(text) ? 'open' : INVITE_ONLY.test(text) || /\binvit\w*\s+(only\s+)?[A-Z]/.test(text) ? 'invited' : 'unspecified',
      placeText: placeAfter(s, np.end),
      past,
    };
  }
}

/** The noun phrase ending just before term i (the subject of an event verb), skipping auxiliaries ("will be held"). */
function phraseEndingAt(s: Term[], i: number): NounPhrase | null {
  // The clause's first noun phrase before the verb: "a protest against the car park will be held" is about the protest.
  let from = i - 1;
  while (from > 0 && !s[from - 1].stop && !(s[from - 1].tags.has('Conjunction') && s[from - 1].lower !== 'and')) from--;
  for (let start = from; start < i; start++) {
    const np = nounPhraseAt(s, start);
    if (np) return np.end <= i ? np : null;
  }
  return null;
}

/** "Isabella Rivera's invitation": the name whose possessive comes just before term i. */
function ownerBefore(s: Term[], i: number): string | null {
  const k = i - 1;
  if (k < 0 || !s[k].tags.has('Possessive')) return null;
  let a = k;
  while (a > 0 && isName(s[a - 1]) && !s[a - 1].stop) a--;
  return s
    .slice(a, k + 1)
    .map((x) => x.text)
    .join(' ')
    .replace(/'s$/, '');
}

/** The person (or proper noun) before a verb: its subject. */
function subjectBefore(s: Term[], i: number): string | null {
  for (let k = i - 1; k >= 0; k--) {
    if (isName(s[k])) {
      let a = k;
      while (a > 0 && isName(s[a - 1]) && !s[a - 1].stop) a--;
      return s
        .slice(a, k + 1)
        .map((x) => x.text.replace(/[,;:.!?]+$/, ''))
        .join(' ');
    }
  }
  return null;
}

/** A name: a person or proper noun, or a capitalised noun the tagger does not know ("Kenji"). */
function isName(t: Term): boolean {
  return t.tags.has('Person') || t.tags.has('ProperNoun') || (t.tags.has('Noun') && /^[A-Z]/.test(t.text) && !t.tags.has('Date') && !t.tags.has('Determiner'));
}

/** "as Isabella Rivera invited her": the inviter, the host of what was accepted. */
function inviterIn(s: Term[]): string | null {
  const k = s.findIndex((t) => t.infinitive === 'invite' && t.tags.has('PastTense'));
  return k > 0 ? subjectBefore(s, k) : null;
}

/** The place phrase after the gathering ("at Hobbs Cafe", "in the library", "outside Town Hall"). */
function placeAfter(s: Term[], from: number): string | null {
  for (let k = from; k < s.length; k++) {
    if (!/^(at|in|outside|by|on)$/.test(s[k].lower)) continue;
    const words: string[] = [];
    for (let j = k + 1; j < s.length; j++) {
      const t = s[j];
      if (t.tags.has('Date') || t.tags.has('Time') || t.tags.has('Value') || t.tags.has('Verb')) break;
      if ((t.tags.has('Preposition') || t.tags.has('Determiner') || t.tags.has('Conjunction')) && words.length > 0) break;
      words.push(t.text.replace(/[,;:.!?]+$/, ''));
      if (t.stop) break;
    }
    const place = words.join(' ').replace(/^the\s+/i, '');
    if (place) return place;
  }
  return null;
}
