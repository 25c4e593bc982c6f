// Small text helpers for reading the reference's residents: times of day in prose ("around 11pm",
// "midnight", "17:30pm"), and its second-person whispers ("You have known Rajiv for a year") in the
// third person, as a memory of the resident's own ("Latoya Williams has known Rajiv for a year"), by the
// town's one rewriter of who is who (server/src/agent/grammar.ts report). A sentence's clauses are cut
// where the meaning reader's tagger reads a verb (compromise, server/src/agent/nlp.ts).
import { nlp } from '../../server/src/agent/nlp';
import { capitalise, report, THEY } from '../../server/src/agent/grammar';

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

/**
 * A second-person statement about a resident in the third person: the first "you" as the full name,
 * later ones as the first name (the reference does not say a resident's pronouns; "yourself" is "themself"), with the verbs whose
 * subject is "you" agreeing ("you like" → "likes"), and "you two" as "the two of them". One rewriter with
 * the town's reports of what was said (grammar.ts report: the whisper is said to the resident).
 * Rule-based, for the reference's short whispers; the reference itself rewrote them with an LLM.
 */
export function thirdPerson(text: string, fullName: string): string {
  return capitalise(report(text.trim(), undefined, { name: fullName, pronouns: THEY }, { later: 'first name', aboutListener: true }));
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
