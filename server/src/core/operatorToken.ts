// The operator token the server makes when OPERATOR_TOKEN is unset: kept in DATA_DIR/operator-token (readable
// by its owner only), so a restart keeps it and an open page's ?token= link stays good; ROTATE_OPERATOR_TOKEN=1
// makes a new one.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The fewest characters an operator token may have (config.ts refuses a shorter OPERATOR_TOKEN). */
export const MIN_TOKEN_CHARS = 12;

export const TOKEN_FILE = 'operator-token';

/** The kept token (made, or made anew when `rotate`), and whether it was made now. */
export function keptOperatorToken(dataDir: string, rotate: boolean): { token: string; made: boolean; file: string } {
  const file = path.join(dataDir, TOKEN_FILE);
  if (!rotate) {
    try {
      const kept = fs.readFileSync(file, 'utf8').trim();
      if (kept.length >= MIN_TOKEN_CHARS && /^[A-Za-z0-9_-]+$/.test(kept)) return { token: kept, made: false, file };
    } catch {
      // none kept yet
    }
  }
  const token = randomBytes(18).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return { token, made: true, file };
}
