// Secrets compared without telling how much of them matched, or how long they are.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares in constant time: the SHA-256 digests of both, so a length difference takes the same time too. */
export function equalSecrets(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
