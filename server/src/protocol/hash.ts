// A 32-bit string hash (FNV-1a), the same on the server and in the page: the sim derives its random
// streams from it, and each agent's lateness (lateness.ts), which the page must know too.
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
