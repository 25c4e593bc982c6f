// An agent's id renamed in plain data: whole strings and keys, at any depth; never inside a text.
import { describe, expect, it } from 'vitest';
import { holdsId, renameInJson } from '../../server/src/core/renameInJson';

describe('renameInJson', () => {
  it('renames whole strings and keys at any depth, and leaves texts that only mention the id', () => {
    const state = {
      agents: [
        {
          spec: { id: 'claire', name: 'Claire Moreau' },
          pairCooldowns: [
            ['claire', 5],
            ['isabella', 7],
          ],
        },
      ],
      conversations: [{ a: 'isabella', b: 'claire', queued: [{ speaker: 'claire', text: 'claire is my id, Claire my name' }] }],
      relationships: { claire: 'a friend', omar: 'the grocer' },
      count: 3,
      none: null,
    };
    const renamed = renameInJson(state, 'claire', 'clara');
    expect(renamed).toEqual({
      agents: [
        {
          spec: { id: 'clara', name: 'Claire Moreau' },
          pairCooldowns: [
            ['clara', 5],
            ['isabella', 7],
          ],
        },
      ],
      conversations: [{ a: 'isabella', b: 'clara', queued: [{ speaker: 'clara', text: 'claire is my id, Claire my name' }] }],
      relationships: { clara: 'a friend', omar: 'the grocer' },
      count: 3,
      none: null,
    });
    // The input is left as it was.
    expect(state.agents[0].spec.id).toBe('claire');
    expect(holdsId(state, 'claire')).toBe(true);
    expect(holdsId(renamed, 'claire')).toBe(false);
  });

  it('returns the same object when nothing holds the id (the control: another id, a prefix)', () => {
    const data = { a: 'claire-2', b: ['claireville'], c: { isabella: 'x' } };
    expect(renameInJson(data, 'claire', 'clara')).toBe(data);
    expect(holdsId(data, 'claire')).toBe(false);
  });
});
