// Issue 45: operator tokens. OPERATOR_TOKEN=a was accepted; wrong tokens were not throttled (~160 a second
// on one connection); the generated token changed on every restart.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { loadConfig } from '../../server/src/config';
import { startTestTown, tempDir } from '../helpers';
import { TokenThrottle, WRONG_TOKENS_PER_WINDOW, WRONG_TOKEN_BLOCK_MS } from '../../server/src/core/tokenThrottle';
import { TownState } from '../../server/src/protocol/state';

describe('operator tokens', () => {
  it('refuses a weak OPERATOR_TOKEN, saying why', () => {
    for (const weak of ['a', 'secret', 'aaaaaaaaaaaaaaaa', 'abcabcabcabc']) {
      expect(() => loadConfig({ OPERATOR_TOKEN: weak }), weak).toThrow(/OPERATOR_TOKEN: too weak: at least 12 characters, 6 of them different/);
    }
    expect(loadConfig({ OPERATOR_TOKEN: 'a-secret-the-user-chose' }).operatorToken).toBe('a-secret-the-user-chose');
  });

  it('keeps the token it made in DATA_DIR across restarts; ROTATE_OPERATOR_TOKEN makes a new one', async () => {
    const dataDir = tempDir();
    const first = await startTestTown({ dataDir });
    await first.close();
    const file = path.join(dataDir, 'operator-token');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.operatorToken);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.operatorToken.length).toBeGreaterThanOrEqual(20);
    const second = await startTestTown({ dataDir });
    expect(second.operatorToken).toBe(first.operatorToken);
    await second.close();
    const rotated = await startTestTown({ dataDir, rotateOperatorToken: true });
    expect(rotated.operatorToken).not.toBe(first.operatorToken);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(rotated.operatorToken);
    await rotated.close();
  }, 60_000);

  it('throttles wrong tokens per address, over HTTP and room joins, even a right one while held back', async () => {
    const warnings: string[] = [];
    const server = await startTestTown(
      { operatorToken: 'throttle-operator-token' },
      { logger: { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } },
    );
    try {
      const post = (token: string) =>
        fetch(`${server.url}/api/towns`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      const statuses: number[] = [];
      for (let i = 0; i < WRONG_TOKENS_PER_WINDOW + 5; i++) statuses.push((await post(`wrong-${i}`)).status);
      expect(statuses.slice(0, WRONG_TOKENS_PER_WINDOW)).toEqual(Array(WRONG_TOKENS_PER_WINDOW).fill(403));
      expect(statuses.slice(WRONG_TOKENS_PER_WINDOW)).toEqual(Array(5).fill(429));
      const right = await post('throttle-operator-token');
      expect([right.status, right.headers.get('retry-after')]).toEqual([429, '60']);
      expect(((await right.json()) as { error: string }).error).toMatch(/^too many wrong operator tokens from this address: try again in \d+ s$/);
      // A room join from the held-back address is refused too; a spectator (no token) still joins.
      await expect(new Client(server.url).join('town', { token: 'throttle-operator-token' }, TownState)).rejects.toThrow(/too many wrong operator tokens/);
      const spectator = await new Client(server.url).join('town', {}, TownState);
      await spectator.leave();
      expect(warnings.filter((w) => w.includes('too many wrong operator tokens from'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('holds back one address only, for the block time', () => {
    let now = 0;
    const throttle = new TokenThrottle(() => now);
    for (let i = 0; i <= WRONG_TOKENS_PER_WINDOW; i++) throttle.check('10.0.0.1', 'wrong-guess', 'the-right-token');
    expect(throttle.check('10.0.0.1', 'the-right-token', 'the-right-token').kind).toBe('throttled');
    expect(throttle.check('10.0.0.2', 'the-right-token', 'the-right-token').kind).toBe('right');
    now += WRONG_TOKEN_BLOCK_MS;
    expect(throttle.check('10.0.0.1', 'the-right-token', 'the-right-token').kind).toBe('right');
  });
});
