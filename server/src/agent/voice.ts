// Person and voice for the offline mind's template speech: a sentence about the speaker said by the
// speaker ("Yumi is studying for her exam" -> "I am studying for my exam"), the reverse for summaries,
// an activity said by the one doing it, and the listener addressed as "you". The words are changed by
// one layer, grammar.ts (who each name and pronoun refers to, its case, and the verbs that agree).
import { report, speak, THEY, type Cast, type Pronouns } from './grammar';

/** The people a sentence may name: their full names, or a cast with their pronouns. */
export type Others = readonly string[] | Cast;

function castOf(others: Others, ...more: string[]): Cast {
  const cast: Cast = Array.isArray(others) ? { names: others as readonly string[] } : (others as Cast);
  return more.length ? { ...cast, more: [...(cast.more ?? []), ...more] } : cast;
}

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
 * Sentences about the speaker, as the speaker says them: the speaker's name (with any apposition after
 * it: "Yumi Tanaka, Kenji's daughter, has an exam"), and the pronouns that are theirs, become I / me / my,
 * and the verbs agree. A pronoun is the latest person named whom it fits (grammar.ts).
 */
export function firstPerson(text: string, fullName: string, others: Others = []): string {
  const first = firstName(fullName);
  const plain = text.replace(new RegExp(`(^|[.;:!?]\\s+)(${escape(fullName)}|${escape(first)}), [^,]+, `, 'g'), '$1$2 ');
  return speak(plain, { speaker: fullName }, castOf(others, fullName));
}

/** A first-person sentence ("I am planning my party") said of the speaker ("Isabella Rivera is planning her party"). */
export function thirdPerson(sentence: string, fullName: string, pronouns: Pronouns = THEY): string {
  return report(sentence, { name: fullName, pronouns });
}

/** Someone the phrase names nobody as: the one doing an activity, whose name is not said. */
const DOER = 'the doer';

/**
 * An activity ("studying for her botany exam") as the one doing it says it: a possessive becomes "my"
 * unless it is someone else's ("helping Klaus with his research" keeps "his").
 */
export function ownVoice(phrase: string, others: Others = []): string {
  return speak(phrase, { speaker: DOER }, castOf(others));
}

/** A sentence told to `listener`: their name becomes "you" ("your" for a possessive), and the verbs agree. */
export function addressing(sentence: string, listenerName: string, others: Others = []): string {
  return speak(sentence, { listener: listenerName }, castOf(others, listenerName));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` mentions the person (full or first name). */
export function mentions(text: string, fullName: string): boolean {
  return new RegExp(`\\b(${escape(fullName)}|${escape(firstName(fullName))})\\b`).test(text);
}
