// The reference's own figures (Park et al. 2023, section 7, with an LLM, 25 agents, two game days), to
// print beside ours: a comparison, never a target (agent/socialModel.ts is not fitted to them).

/** Figure name pattern (as in seeds.ts) -> what the paper reports for it. */
export const PAPER_FIGURES: Array<[RegExp, string]> = [
  [/^topics\.party\.aware_end$/, '12 of 25 (party invitation)'],
  [/^topics\.candidacy\.aware_end$/, '8 of 25 (mayoral candidacy)'],
  [/^topics\.party\.aware_start$/, '1 of 25'],
  [/^topics\.candidacy\.aware_start$/, '1 of 25'],
  [/^density\.start$/, '0.167'],
  [/^density\.end$/, '0.74'],
  [/\.invited_present$/, '5 (of 12 invited)'],
  [/\.invited$/, '12'],
  [/\.attended_share_of_invited$/, '0.42 (5 of 12)'],
];

/** What the paper reports for a figure, or '' when it reports none. */
export function paperFigure(figure: string): string {
  return PAPER_FIGURES.find(([re]) => re.test(figure))?.[1] ?? '';
}
