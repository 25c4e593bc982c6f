// Issue 21 §7: "Remove from town" survives a restart, and a persona file never added stays out of a
// resumed town (before, every file in PERSONAS_DIR joined on resume).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentId } from '../../server/src/protocol/ids';
import { startTestTown, subsetPersonas, tempDir } from '../helpers';

describe('who is in a resumed town', () => {
  it('keeps a removed resident out, and a file dropped into the folder while stopped out too', async () => {
    const dataDir = tempDir();
    const personasDir = subsetPersonas(['isabella', 'kenji', 'ruth']);
    const first = await startTestTown({ dataDir, personasDir, startTime: '2026-02-13T08:00' });
    first.town.commands.removeAgent('ruth' as AgentId, 'test');
    await first.town.commands.step(1, 'test');
    expect(first.town.sim.agent('ruth')).toBeUndefined();
    await first.close();
    // A file the operator never added, put in the folder while the town was stopped.
    fs.copyFileSync(path.join(subsetPersonas(['arthur']), 'arthur.yaml'), path.join(personasDir, 'arthur.yaml'));

    const again = await startTestTown({ dataDir, personasDir, startTime: '2026-02-13T08:00' });
    expect(again.town.resumed).toBe(true);
    await again.town.commands.step(1, 'test');
    const ids = again.town.sim
      .agents()
      .map((a) => a.spec.id)
      .sort();
    expect(ids).toEqual(['isabella', 'kenji']);
    // Still addable from the page: the folder's files that are not in town.
    const addable = (await (await fetch(`${again.url}/api/personas`)).json()) as { personas: Array<{ id: string }> };
    expect(addable.personas.map((p) => p.id).sort()).toEqual(expect.arrayContaining(['arthur', 'ruth']));
    await again.close();
  }, 90_000);
});
