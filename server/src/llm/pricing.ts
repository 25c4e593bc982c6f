// Prices per million tokens, for cost accounting and dollar budgets. LLM_PRICES adds or overrides.
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}
export type PriceTable = Record<string, Price>;

/** Public list prices (USD) of common models; local models cost nothing. */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  'text-embedding-3-small': { inputPerMTok: 0.02, outputPerMTok: 0 },
  'text-embedding-3-large': { inputPerMTok: 0.13, outputPerMTok: 0 },
};

export class Pricing {
  private readonly table: PriceTable;
  private readonly warned = new Set<string>();
  constructor(
    overrides: PriceTable = {},
    private readonly onUnknown: (model: string) => void = () => undefined,
  ) {
    this.table = { ...DEFAULT_PRICES, ...overrides };
  }
  /** Dollars for a call; 0 (and one warning) for a model without a price. */
  cost(model: string, promptTokens: number, completionTokens: number): number {
    const price = this.table[model] ?? this.table[model.replace(/-\d{4}-\d{2}-\d{2}$/, '')];
    if (!price) {
      if (!this.warned.has(model)) {
        this.warned.add(model);
        this.onUnknown(model);
      }
      return 0;
    }
    return (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1_000_000;
  }
}
