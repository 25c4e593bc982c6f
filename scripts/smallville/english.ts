// Small text helpers for reading the reference's residents: times of day in prose ("around 11pm",
// "midnight", "17:30pm"), and its second-person whispers ("You have known Rajiv for a year") in the
// third person, as a memory of the resident's own ("Latoya Williams has known Rajiv for a year"). Which word
// is a verb, and in which tense, is read with the meaning reader's tagger (compromise, server/src/agent/nlp.ts).
import { nlp } from '../../server/src/agent/nlp';

/** Minutes since midnight of a time in prose, or null. `bare` says how to read an hour with no am/pm. */
export function parseTimePhrase(text: string, bare: 'am' | 'pm' | 'bed' = 'am'): number | null {
  const t = text.toLowerCase();
  if (/\bmidnight\b/.test(t)) return 0;
  if (/\bnoon\b|\bmidday\b/.test(t)) return 12 * 60;
  const m = /\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?/.exec(t);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  if (hour > 24 || minute > 59) return null;
  const suffix = m[3]?.replace(/\./g, '');
  if (hour > 12) {
    // "17:30pm": a 24-hour time with a stray suffix.
  } else if (suffix === 'pm') hour = hour === 12 ? 12 : hour + 12;
  else if (suffix === 'am') hour = hour === 12 ? 0 : hour;
  else if (bare === 'pm' && hour < 12) hour += 12;
  else if (bare === 'bed' && hour >= 5 && hour < 12) hour += 12;
  return (hour % 24) * 60 + minute;
}

/** Every time of day mentioned in `text`, in order, with where it is. */
export function timesIn(text: string): Array<{ minute: number; index: number; phrase: string }> {
  const out: Array<{ minute: number; index: number; phrase: string }> = [];
  const re = /\b(midnight|noon|\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?))/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const minute = parseTimePhrase(m[1]);
    if (minute !== null) out.push({ minute, index: m.index, phrase: m[1] });
  }
  return out;
}

export function hhmm(minute: number): string {
  const m = ((Math.round(minute) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const ADVERBS = new Set([
  'sometimes',
  'often',
  'always',
  'never',
  'usually',
  'also',
  'really',
  'just',
  'secretly',
  'still',
  'recently',
  'already',
  'actually',
  'generally',
  'mostly',
  'occasionally',
  'rarely',
  'frequently',
  'even',
  'only',
  'truly',
  'absolutely',
]);
const UNCHANGED = new Set([
  'can',
  'could',
  'will',
  'would',
  'should',
  'may',
  'might',
  'must',
  'did',
  'had',
  'was',
  'used',
  "didn't",
  "can't",
  "won't",
  "couldn't",
  "wouldn't",
  'cannot',
]);
const IRREGULAR: Record<string, string> = {
  are: 'is',
  am: 'is',
  were: 'was',
  have: 'has',
  do: 'does',
  "don't": "doesn't",
  go: 'goes',
  "aren't": "isn't",
  "haven't": "hasn't",
  "weren't": "wasn't",
};
const SUBJECT_BEFORE = new Set([
  'and',
  'but',
  'that',
  'because',
  'when',
  'if',
  'so',
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
  'or',
]);

const pastCache = new Map<string, boolean>();
/** Whether the tagger reads a word after "you" as a verb in the past tense ("moved", "helped", "met"): it agrees with any subject as it is. */
function isPastTense(word: string): boolean {
  const w = word.toLowerCase();
  let past = pastCache.get(w);
  if (past === undefined) {
    const terms = (nlp(`you ${w} him`).json({ terms: { tags: true } }) as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms ?? [];
    past = terms[1]?.tags.includes('PastTense') === true;
    pastCache.set(w, past);
  }
  return past;
}

function thirdPersonVerb(word: string): string {
  const w = word.toLowerCase();
  if (IRREGULAR[w]) return matchCase(IRREGULAR[w], word);
  if (UNCHANGED.has(w)) return word;
  if (/[^aeiou]y$/.test(w)) return `${word.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z|o)$/.test(w)) return `${word}es`;
  return `${word}s`;
}

function matchCase(word: string, like: string): string {
  return like[0] === like[0].toUpperCase() ? word[0].toUpperCase() + word.slice(1) : word;
}

/**
 * A second-person statement about a resident in the third person: the first "you" as the full name,
 * later ones as the first name, with the verb after a subject "you" agreeing ("you like" → "likes").
 * Rule-based, for the reference's short whispers; the reference itself rewrote them with an LLM.
 */
export function thirdPerson(text: string, fullName: string): string {
  const first = fullName.split(' ')[0];
  let named = false;
  const subject = (): string => (named ? first : ((named = true), fullName));
  const tokens = text.trim().match(/[A-Za-z]+(?:'[A-Za-z]+)?|[^A-Za-z]+/g) ?? [];
  const words = (i: number, step: number): number => {
    for (let j = i + step; j >= 0 && j < tokens.length; j += step) if (/^[A-Za-z]/.test(tokens[j])) return j;
    return -1;
  };
  const out = [...tokens];
  for (let i = 0; i < tokens.length; i++) {
    const lower = tokens[i].toLowerCase();
    if (lower === "you're") out[i] = `${subject()} is`;
    else if (lower === "you've") out[i] = `${subject()} has`;
    else if (lower === "you'll") out[i] = `${subject()} will`;
    else if (lower === "you'd") out[i] = `${subject()} would`;
    else if (lower === 'your' || lower === 'yours') out[i] = `${named ? first : subject()}'s`;
    else if (lower === 'yourself') out[i] = named ? first : subject();
    else if (lower === 'you') {
      const prev = words(i, -1);
      const next = words(i, 1);
      const nextWord = next >= 0 ? tokens[next].toLowerCase() : '';
      if (nextWord === 'two' || nextWord === 'both') {
        // "you two are close" → "the two of them are close"
        out[i] = 'the';
        out[next] = nextWord === 'two' ? 'two of them' : 'two of them';
        continue;
      }
      const isSubject =
        prev === -1 ||
        // After a clause's end, a colon or a dash ("Tom is your husband -- you love him").
        /(?:[.;,!?:]|--?|—)\s*$/.test(tokens.slice(prev + 1, i).join('')) ||
        SUBJECT_BEFORE.has(tokens[prev].toLowerCase()) ||
        IRREGULAR[nextWord] !== undefined ||
        UNCHANGED.has(nextWord) ||
        ADVERBS.has(nextWord) ||
        // A relative clause after a noun: "the rye you like" → "the rye Dov likes".
        (words(prev, -1) >= 0 &&
          /^(the|a|an|every|each|this|these|those)$/i.test(tokens[words(prev, -1)]) &&
          !/^(to|for|with|at|of|about)$/i.test(tokens[prev]));
      if (!isSubject) {
        out[i] = named ? first : subject();
        continue;
      }
      out[i] = subject();
      // Make the verb agree: skip adverbs ("you sometimes talk" → "sometimes talks").
      let v = next;
      while (v >= 0 && ADVERBS.has(tokens[v].toLowerCase())) v = words(v, 1);
      // A word the tagger does not know as a helper, straight before a past-tense verb, modifies it ("you justn moved in": a misspelt
      // "just"): the verb is the past one.
      const after = v >= 0 ? words(v, 1) : -1;
      const helper = (w: string) => IRREGULAR[w] !== undefined || UNCHANGED.has(w) || /^(has|had|be|been|being|is|was|not)$/.test(w);
      if (after >= 0 && !helper(tokens[v].toLowerCase()) && !isPastTense(tokens[v]) && isPastTense(tokens[after]) && !helper(tokens[after].toLowerCase()))
        v = after;
      // A verb in the past tense agrees as it is ("you just moved in" → "just moved in", not "moveds").
      if (v >= 0 && !/^(to|the|a|an|and|of)$/i.test(tokens[v]) && !isPastTense(tokens[v])) out[v] = thirdPersonVerb(tokens[v]);
    }
  }
  const s = out.join('');
  return s[0].toUpperCase() + s.slice(1);
}

/** "Isabella Rodriguez" → "isabella-rodriguez": a persona id (file name). */
export function idOf(name: string): string {
  const id = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z]/.test(id) ? id : `p-${id || 'resident'}`;
}

/** Sentences of a paragraph. */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 1);
}

/** Lowercase words without stop words, plurals folded ("Willows" ~ "willow", "classes" ~ "class"). */
export function keyWords(text: string): string[] {
  const STOP = new Set(['the', 'and', 'of', 'a', 'an', 'at', 'in', 'for', 'to', 's']);
  return text
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z]+/)
    .filter((w) => w && !STOP.has(w))
    .map((w) =>
      w.length > 4 && w.endsWith('es') && /(ss|sh|ch|x)es$/.test(w)
        ? w.slice(0, -2)
        : w.length > 3 && w.endsWith('s') && !w.endsWith('ss')
          ? w.slice(0, -1)
          : w,
    );
}

/** A paragraph with its second-person sentences ("You don't like Sam.") in the third person; the others as they are. */
export function thirdPersonText(text: string, fullName: string): string {
  if (!/\byou(?:r|rs|rself|'re|'ve|'ll|'d)?\b/i.test(text)) return text;
  return sentencesOf(text)
    .map((s) => (/\byou(?:r|rs|rself|'re|'ve|'ll|'d)?\b/i.test(s) ? thirdPerson(s, fullName) : s))
    .join(' ');
}

/**
 * A sentence's clauses: cut at each semicolon, and at ", and"/", but" where a clause follows (a verb or a pronoun
 * subject first, or a verb before its next comma: "and is running the store", "and she works"), not where a list goes
 * on ("the Lin family, Mei, John, and the son Eddy Lin, for a few years": one clause).
 */
export function clausesOf(sentence: string): string[] {
  const out: string[] = [];
  for (const part of sentence.split(/;\s*/)) {
    const pieces = part.split(/,\s+(?=(?:and|but)\s)/);
    out.push(pieces[0]);
    for (const piece of pieces.slice(1)) {
      if (startsClause(piece.replace(/^(?:and|but)\s+/, ''))) out.push(piece);
      else out[out.length - 1] += `, ${piece}`;
    }
  }
  return out;
}

function startsClause(text: string): boolean {
  const head = text.split(',')[0];
  const terms = (nlp(head).json({ terms: { tags: true } }) as Array<{ terms: Array<{ tags: string[] }> }>).flatMap((x) => x.terms);
  const first = terms[0]?.tags ?? [];
  if (first.includes('Verb') || first.includes('Adverb') || (first.includes('Pronoun') && terms.length > 1)) return true;
  return terms.some((t) => t.tags.includes('Verb'));
}

/**
 * What `texts` (the resident's own statements) say about another person: each sentence that names them, cut to its
 * clauses ("A is living with his wife, B, and is running the store" → "A is living with his wife, B"). A clause that
 * names them is kept, with the sentence's subject put back when it lost it ("and is mending B's oven" → "A is mending
 * B's oven"); a clause after a kept one is kept when it goes on about them by a pronoun not the resident's own and
 * names no one else.
 */
export function linesAbout(
  texts: readonly string[],
  mentions: (t: string) => boolean,
  mentionsAnyoneElse: (t: string) => boolean,
  subject: string,
  /** Pronouns that can only be the other person's (the resident's own are theirs: "and spends his free time"). */
  theirPronouns: RegExp,
): string[] {
  const out: string[] = [];
  for (const sentence of texts.flatMap((t) => sentencesOf(t))) {
    if (!mentions(sentence)) continue;
    const clauses = clausesOf(sentence.replace(/[.!?\s]+$/, ''));
    const kept: string[] = [];
    let going = false;
    clauses.forEach((raw, i) => {
      const clause = raw.replace(/^(?:and|but)\s+/, '').trim();
      if (mentions(clause)) going = true;
      else if (!(going && theirPronouns.test(clause) && !mentionsAnyoneElse(clause))) {
        going = false;
        return;
      }
      // A later clause whose subject was the sentence's: "is mending ..." → "<subject> is mending ...".
      const bare = i > 0 && /^(?:is|was|has|had|does|also|often|always|will|would|can|[a-z]+s)\b/.test(clause) && !/^(?:she|he|they|it|this)\b/i.test(clause);
      kept.push(i === 0 ? clause : bare ? `${subject} ${clause}` : clause);
    });
    if (kept.length) out.push(`${kept.join(', and ')}.`.replace(/^[a-z]/, (c) => c.toUpperCase()));
  }
  // Lines where they are the first person named come first; a line that names them after someone else is about that other person first
  // (Sam's "… Yuriko Yamamoto … helped Sam and his wife Jennifer Moore" does not open what Sam thinks of Jennifer).
  const namesThemFirst = (line: string): boolean => {
    const words = line.split(/\s+/);
    for (let k = 1; k <= words.length; k++) {
      const prefix = words.slice(0, k).join(' ');
      if (mentions(prefix)) return true;
      if (mentionsAnyoneElse(prefix)) return false;
    }
    return false;
  };
  const distinct = out.filter((l, i, all) => all.indexOf(l) === i);
  return [...distinct.filter(namesThemFirst), ...distinct.filter((l) => !namesThemFirst(l))];
}
