// Person and voice for the offline mind's template speech: a sentence about the speaker said by the
// speaker ("Yumi is studying for her exam" -> "I am studying for my exam"), the reverse for summaries,
// an activity said by the one doing it, and the listener addressed as "you". Verbs are found and
// conjugated by compromise (a part-of-speech tagger); names and pronouns by rules that never give
// a possessive to the speaker once another person has been named in the sentence.
import { nlp } from './nlp';

/** Words after which a finite verb belongs to someone else: another subject. */
const OTHER_SUBJECT = /\b(he|she|it|they|we|you|who|which|that)\b/i;
/** A finite verb agrees with "I" only right after it (or after "and"/"or"/"but" in its scope), adverbs allowed between. */
const VERB_LEAD = /(?:^|\s)(I|and|or|but)(\s+(?:also|often|still|always|never|now|usually|\w+ly))*\s+$/;
const IRREGULAR_FIRST: Record<string, string> = { is: 'am', "'s": "'m", has: 'have', does: 'do', was: 'was' };
const IRREGULAR_THIRD: Record<string, string> = { am: 'is', "'m": "'s", have: 'has', do: 'does', was: 'was', were: 'was' };

/** The first name: "Yumi" of "Yumi Tanaka". */
export function firstName(fullName: string): string {
  return fullName.split(' ')[0];
}

/** Whether a sentence is about `fullName`: it starts with the name (full or first). */
export function isAbout(sentence: string, fullName: string): boolean {
  const first = firstName(fullName);
  return new RegExp(`^(${escape(fullName)}|${escape(first)})(\\b|'s\\b)`).test(sentence);
}

/**
 * Sentences about the speaker, as the speaker says them: a sentence (or clause after ";") that starts
 * with the speaker's name (with any apposition after it) or with "She"/"He" gets "I" and verbs that
 * agree; later references to the speaker become "my" / "me", until one of `others` (people's names) is
 * named. Sentences about someone else keep their subject.
 */
export function firstPerson(text: string, fullName: string, others: readonly string[] = []): string {
  let said = '';
  for (const clause of clauses(text)) said += firstPersonClause(clause, fullName, others, namesAnyOf(said, others));
  return said;
}

/** Whether `text` names one of `people` (full or first name). */
function namesAnyOf(text: string, people: readonly string[]): boolean {
  return people.some((n) => new RegExp(`\\b(${escape(n)}|${escape(firstName(n))})\\b`).test(text));
}

function firstPersonClause(clause: string, fullName: string, others: readonly string[], otherNamed: boolean): string {
  const first = firstName(fullName);
  const lead = new RegExp(`^(\\s*)(${escape(fullName)}|${escape(first)}|She|He|she|he)\\b`).exec(clause);
  if (!lead) return selfReferences(clause, fullName);
  let rest = clause.slice(lead[0].length);
  // Once someone else has been named, a pronoun may be theirs: leave it.
  const mine = (t: string) => (otherNamed ? t : ownPronouns(t, others));
  if (rest.startsWith("'s ")) return `${lead[1]}My ${selfReferences(mine(rest.slice(3)), fullName)}`;
  // "Yumi Tanaka, Kenji's daughter, has an exam": the apposition goes with the name.
  const apposition = /^, [^,]+, /.exec(rest);
  if (apposition) rest = ` ${rest.slice(apposition[0].length)}`;
  // compromise reads "has been", "is" after a name as other tenses at times: "I" takes "have", "am", "do".
  return (
    lead[1] +
    conjugate(`I${selfReferences(mine(rest), fullName)}`, 'first', others).replace(
      /^I(\s+\w+ly)?\s+(has|is|does)\b/,
      (_m, adv: string | undefined, verb: string) => `I${adv ?? ''} ${IRREGULAR_FIRST[verb]}`,
    )
  );
}

/** Sentences and ";" or ":" clauses, each with the whitespace before it. */
function clauses(text: string): string[] {
  return text.split(/(?<=[.!?;:])(?=\s)/);
}

/** A first-person sentence ("I am planning my party") said of the speaker ("Isabella Rivera is planning their party"). */
export function thirdPerson(sentence: string, fullName: string): string {
  if (!/^I\b/.test(sentence)) return sentence;
  const text = conjugate(sentence, 'third', [])
    .replace(/\bmy\b/g, 'their')
    .replace(/\bmyself\b/g, 'themself')
    .replace(/\bme\b/g, 'them');
  return `${fullName}${text.slice(1)}`;
}

/**
 * An activity ("studying for her botany exam") as the one doing it says it: a possessive becomes "my"
 * only while nobody else has been named ("helping Klaus with his research" keeps "his").
 */
export function ownVoice(phrase: string, others: readonly string[] = []): string {
  return ownPronouns(phrase, others);
}

/** A sentence told to `listener`: their name becomes "you" ("your" for a possessive). */
export function addressing(sentence: string, listenerName: string): string {
  const first = firstName(listenerName);
  const names = `(${escape(listenerName)}|${escape(first)})`;
  return sentence
    .replace(new RegExp(`^${names}'s\\b`), 'Your')
    .replace(new RegExp(`\\b${names}'s\\b`, 'g'), 'your')
    .replace(new RegExp(`^${names}\\b`), 'You')
    .replace(new RegExp(`\\b${names}\\b`, 'g'), 'you');
}

/**
 * "her/his" -> "my", "him/her" as object -> "me", "she/he" -> "I", until another person (one of `others`,
 * or any capitalised word when none are given) is named. ("their" is left: it is usually other people's.)
 */
function ownPronouns(text: string, others: readonly string[]): string {
  const names = others.flatMap((n) => [n, firstName(n)]).map(escape);
  const other = names.length ? new RegExp(`\\b(${names.join('|')})\\b`).exec(text) : /(?<=[a-z,]\s+)[A-Z][a-z]+/.exec(text);
  const cut = other ? other.index : text.length;
  const mine = text
    .slice(0, cut)
    .replace(/\b(her|his)(?=\s+[a-z])/g, 'my')
    .replace(/\b(Her|His)(?=\s+[a-z])/g, 'My')
    .replace(/\b(him|her)\b/g, 'me')
    .replace(/\b(himself|herself)\b/g, 'myself')
    .replace(/\b(she|he)\b/g, 'I');
  return mine + text.slice(cut);
}

/** The speaker's own name later in a sentence: "with Ayo" -> "with me", "Ayo's poster" -> "my poster". */
function selfReferences(text: string, fullName: string): string {
  const names = `(${escape(fullName)}|${escape(firstName(fullName))})`;
  return text.replace(new RegExp(`\\b${names}'s\\b`, 'g'), 'my').replace(new RegExp(`(?<=\\s)${names}\\b`, 'g'), 'me');
}

/** Makes the present-tense verbs whose subject is the leading "I" agree with it (first) or with a name (third). */
function conjugate(text: string, person: 'first' | 'third', others: readonly string[]): string {
  const verbs = nlp(text).verbs().json({ offset: true }) as Array<{
    text: string;
    offset: { start: number; length: number };
    verb: { grammar: { tense?: string; isInfinitive?: boolean } };
  }>;
  let out = '';
  let cursor = 0;
  let own = true;
  for (const v of verbs) {
    const start = v.offset.start;
    if (start < cursor || v.text === '') continue;
    const between = text.slice(cursor, start);
    // Another subject in between (a pronoun, or a person named, not as a possessive) takes the verbs that follow.
    if (cursor > 0 && (OTHER_SUBJECT.test(between) || namesAnyOf(between.replace(/\b[A-Z][a-z]+'s\b/g, ''), others)) && !/\bI\b/.test(between)) own = false;
    if (cursor > 0 && /\bI\b/.test(between)) own = true;
    out += between;
    const word = /^[A-Za-z']+/.exec(text.slice(start))?.[0] ?? '';
    const finite = v.verb.grammar.tense === 'PresentTense' && !v.verb.grammar.isInfinitive && !/ing$/.test(word) && VERB_LEAD.test(text.slice(0, start));
    out += own && finite && word ? agree(word, person) : word;
    cursor = start + word.length;
  }
  return out + text.slice(cursor);
}

function agree(word: string, person: 'first' | 'third'): string {
  const lower = word.toLowerCase();
  if (person === 'first') {
    if (IRREGULAR_FIRST[lower]) return IRREGULAR_FIRST[lower];
    if (!/s$/.test(lower)) return word;
    return (nlp(word).verbs().toInfinitive().text() || word).trim();
  }
  if (IRREGULAR_THIRD[lower]) return IRREGULAR_THIRD[lower];
  const conjugated = (nlp(word).verbs().conjugate() as Array<{ PresentTense?: string }>)[0]?.PresentTense;
  return conjugated || word;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The reverse of `addressing`: "you" in a sentence told to `listenerName` becomes their name again. */
export function unaddressing(sentence: string, listenerName: string): string {
  return sentence
    .replace(/^Your\b/, `${listenerName}'s`)
    .replace(/\byour\b/g, `${listenerName}'s`)
    .replace(/^You\b/, listenerName)
    .replace(/\byou\b/g, listenerName);
}

/** Whether `text` mentions the person (full or first name). */
export function mentions(text: string, fullName: string): boolean {
  return new RegExp(`\\b(${escape(fullName)}|${escape(firstName(fullName))})\\b`).test(text);
}
