// Every agent's revised status is read in one pass over the log when a town opens (statusOf per agent was a
// scan of the log each, 10,000 of them at the start of a town of ten thousand): the same answers as statusOf.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { AgentId } from '../../server/src/protocol/ids';

const at = (gameMs: number, agentId: string, currently: string) => ({
  gameMs,
  kind: 'status.revised' as const,
  agentId: agentId as AgentId,
  data: { day: 1, currently },
});

describe('the statuses a town opens with', () => {
  it('are each agent’s newest revised status, as statusOf reads it, and none for an agent never revised', () => {
    const db = openWorldDb(':memory:', { model: 'test', dimension: 4 });
    db.events.append([at(1, 'ana', 'Ana is baking.'), at(2, 'ben', 'Ben is fishing.'), at(3, 'ana', 'Ana is resting.')]);
    db.events.append([{ gameMs: 4, kind: 'run.started', agentId: null, data: {} } as never]);
    const all = db.statuses();
    expect(all).toEqual(
      new Map([
        ['ana', 'Ana is resting.'],
        ['ben', 'Ben is fishing.'],
      ]),
    );
    for (const id of ['ana', 'ben', 'cal']) expect(all.get(id) ?? null, id).toBe(db.statusOf(id as AgentId));
    db.close();
  });
});
