// Wrong operator tokens, throttled per client address: a guesser on one connection tried ~160 a second.
// After WRONG_TOKENS_PER_WINDOW wrong tokens within WRONG_TOKEN_WINDOW_MS, an address may not try a token
// (right or wrong: a right guess would tell) for WRONG_TOKEN_BLOCK_MS. HTTP (requireOperator) and the town
// room's join (TownRoom.onAuth) share one throttle per process.
import { equalSecrets } from './secrets';

export const WRONG_TOKENS_PER_WINDOW = 20;
export const WRONG_TOKEN_WINDOW_MS = 60_000;
export const WRONG_TOKEN_BLOCK_MS = 60_000;
/** Addresses remembered at most; the oldest are forgotten first (a flood of addresses cannot grow the map). */
const ADDRESSES_KEPT = 10_000;

export type TokenVerdict = { kind: 'right' } | { kind: 'wrong' } | { kind: 'throttled'; retryAfterMs: number };

export class TokenThrottle {
  private readonly wrong = new Map<string, { timesMs: number[]; blockedUntilMs: number }>();

  constructor(
    private readonly nowMs: () => number = Date.now,
    /** Told once each time an address is held back. */
    private readonly onBlock: (address: string) => void = () => undefined,
  ) {}

  /** Whether `given` is the operator token, unless `address` is held back for wrong ones. */
  check(address: string, given: string, expected: string): TokenVerdict {
    const now = this.nowMs();
    const entry = this.wrong.get(address);
    if (entry && entry.blockedUntilMs > now) return { kind: 'throttled', retryAfterMs: entry.blockedUntilMs - now };
    if (equalSecrets(given, expected)) return { kind: 'right' };
    const record = entry ?? { timesMs: [], blockedUntilMs: 0 };
    record.timesMs = record.timesMs.filter((t) => t > now - WRONG_TOKEN_WINDOW_MS);
    record.timesMs.push(now);
    if (record.timesMs.length >= WRONG_TOKENS_PER_WINDOW) {
      record.blockedUntilMs = now + WRONG_TOKEN_BLOCK_MS;
      record.timesMs = [];
      this.onBlock(address);
    }
    this.wrong.delete(address);
    this.wrong.set(address, record);
    if (this.wrong.size > ADDRESSES_KEPT) this.wrong.delete(this.wrong.keys().next().value!);
    return { kind: 'wrong' };
  }

  /** The refusal a throttled client is told. */
  static message(retryAfterMs: number): string {
    return `too many wrong operator tokens from this address: try again in ${Math.ceil(retryAfterMs / 1000)} s`;
  }
}

let shared = new TokenThrottle();

/** The process's throttle (app.ts replaces it at start-up with one that logs). */
export function operatorTokenThrottle(): TokenThrottle {
  return shared;
}

export function setOperatorTokenThrottle(throttle: TokenThrottle): void {
  shared = throttle;
}
