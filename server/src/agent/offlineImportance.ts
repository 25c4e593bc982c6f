// The offline mind's importance: a keyword table is the whole rule (server/src/agent/README.md).

/** Words that make a memory matter, and how much. */
const IMPORTANT_WORDS: Array<[RegExp, number]> = [
  [/\b(died|death|funeral|accident|fire|emergency|hospital|flood\w*|alarm|evacuat\w*|gas leak|explosion)\b/i, 9],
  [/\b(party|invit\w*|valentine\w*|wedding|birthday|festival|concert|celebrat\w*|election|engaged|proposal)\b/i, 8],
  [/\b(closed|cancel\w*|fight|argument|promot\w*|fired|secret|love|moving)\b/i, 7],
  [/\b(news|heard|told|plan\w*|research|exhibition|exam|deadline|meeting)\b/i, 5],
];
const MUNDANE = /\b(sleeping|resting|is in use|idle|walking|getting ready|brushing|showering|taking a shower|washing)\b/i;

/** What a retelling loses: second-hand news ("… (heard from X)") rates this much below the news itself. */
const SECOND_HAND_DISCOUNT = 1;
const HEARD_FROM = /\s*\(heard from [^)]*\)\s*$/;

/**
 * 1..10: mundane activity 1, default 2, then the table; +1 when it names the agent (its first name).
 * Second-hand news is rated as the news itself (not as "heard"), less SECOND_HAND_DISCOUNT.
 */
export function rateImportanceHeuristically(text: string, persona?: { name: string }): number {
  const secondHand = HEARD_FROM.test(text);
  const description = text.replace(HEARD_FROM, '');
  let score = MUNDANE.test(description) ? 1 : 2;
  for (const [pattern, value] of IMPORTANT_WORDS) if (pattern.test(description)) score = Math.max(score, value);
  if (persona) {
    const first = persona.name.split(' ')[0];
    if (description.includes(first)) score += 1;
  }
  if (secondHand) score -= SECOND_HAND_DISCOUNT;
  return Math.max(1, Math.min(10, score));
}
