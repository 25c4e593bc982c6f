// The offline mind's importance: a keyword table is the whole rule (server/src/agent/README.md).

/** Words that make a memory matter, and how much. */
const IMPORTANT_WORDS: Array<[RegExp, number]> = [
  [/\b(died|death|funeral|accident|fire|emergency|hospital)\b/i, 9],
  [/\b(party|invit\w*|valentine\w*|wedding|birthday|festival|concert|celebrat\w*|election|engaged|proposal)\b/i, 8],
  [/\b(closed|cancel\w*|fight|argument|promot\w*|fired|secret|love|moving)\b/i, 7],
  [/\b(news|heard|told|plan\w*|research|exhibition|exam|deadline|meeting)\b/i, 5],
];
const MUNDANE = /\b(sleeping|resting|is in use|idle|walking|getting ready|brushing|showering|taking a shower|washing)\b/i;

/** 1..10: mundane activity 1, default 2, then the table; +1 when it names the agent (its first name). */
export function rateImportanceHeuristically(description: string, persona?: { name: string }): number {
  let score = MUNDANE.test(description) ? 1 : 2;
  for (const [pattern, value] of IMPORTANT_WORDS) if (pattern.test(description)) score = Math.max(score, value);
  if (persona) {
    const first = persona.name.split(' ')[0];
    if (description.includes(first)) score += 1;
  }
  return Math.max(1, Math.min(10, score));
}
