// Issue 45: paths still leaked. A world recorded on a map given as an absolute path told spectators that
// path (`run.started` in /api/events and exports; /api/timeline and /api/replay/world once the map is
// gone), and room error replies were not scrubbed ("…/p2/aaaa.yaml: no such persona file").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { startTestTown, subsetPersonas, tempDir, waitFor } from '../helpers';
import { TownState } from '../../server/src/protocol/state';
import type { ErrorReply } from '../../server/src/protocol/messages';

const TOKEN = 'path-leaks-operator';

describe('no server path reaches a spectator, an export or a room reply', () => {
  it('names an absolute map by its file alone in the log, the exports, and the replay routes once it is gone', async () => {
    const outside = tempDir('smalltown-outside-');
    fs.cpSync('maps', path.join(outside, 'maps'), { recursive: true });
    const mapFile = path.join(outside, 'maps', 'town.tmj');
    const dataDir = tempDir();
    const first = await startTestTown({ dataDir, world: 'away', mapFile, rate: 600 });
    await first.town.commands.step(5, 'test');
    const seen: string[] = [];
    for (const route of ['/api/events?limit=50', '/api/export/events', '/api/feed']) seen.push(await (await fetch(`${first.url}${route}`)).text());
    await first.close();
    fs.rmSync(outside, { recursive: true });
    const second = await startTestTown({ dataDir, operatorToken: TOKEN });
    try {
      for (const route of ['/api/timeline?world=away', '/api/replay/world?world=away']) {
        const res = await fetch(`${second.url}${route}`);
        const text = await res.text();
        expect([route, res.status]).toEqual([route, 404]);
        expect(text).toMatch(/recorded on the map town\.tmj, which is not there/);
        seen.push(text);
      }
    } finally {
      await second.close();
    }
    expect(seen.join('\n')).toContain('town.tmj');
    for (const [i, text] of seen.entries()) expect(text, `answer ${i}`).not.toContain(outside);
  }, 120_000);

  it('scrubs room error replies as HTTP errors are', async () => {
    const personasDir = subsetPersonas(['isabella', 'kenji']);
    const server = await startTestTown({ operatorToken: TOKEN, personasDir });
    try {
      const room = await new Client(server.url).join('town', { token: TOKEN }, TownState);
      const errors: ErrorReply[] = [];
      room.onMessage('welcome', () => undefined);
      room.onMessage('error', (e: ErrorReply) => errors.push(e));
      room.send('agent', { op: 'add', personaId: 'aaaa' });
      await waitFor('the refusal', () => errors.length > 0);
      expect(errors[0]!.message).toMatch(/aaaa\.yaml/);
      expect(errors[0]!.message).not.toContain(personasDir);
      await room.leave();
    } finally {
      await server.close();
    }
  }, 60_000);
});
