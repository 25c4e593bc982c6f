// The names and pronouns every mind call is given are derived from all personas once, and again only
// when a persona changes (a town of 10,000 made them anew on every call: a pass over everyone per call).
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas, PersonaMap } from '../../server/src/world/persona';
import { CognitionContext, type AgentRuntimeDeps } from '../../server/src/agent/context';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { AgentId } from '../../server/src/protocol/ids';

const map = loadTownMap('maps/town.tmj');
const loaded = loadPersonas('personas', map);

function contextOver(personas: ReadonlyMap<string, (typeof loaded)[number]>): CognitionContext {
  const deps = {
    map,
    seed: 1,
    personas,
    mind: new OfflineMind(),
    records: { statusOf: () => null, relationshipsOf: () => [] },
    sim: { agent: () => undefined },
    emit: () => {},
  } as unknown as AgentRuntimeDeps;
  return new CognitionContext(deps);
}

describe('PersonaMap', () => {
  it('counts every set and delete, including those of its first entries', () => {
    const m = new PersonaMap(loaded.map((p) => [p.id as string, p]));
    expect(m.size).toBe(loaded.length);
    const v = m.version;
    m.set(loaded[0].id, loaded[0]);
    expect(m.version).toBeGreaterThan(v);
    const w = m.version;
    m.delete(loaded[1].id);
    expect(m.version).toBeGreaterThan(w);
  });

  it("keeps the mind's names while no persona changes, and gives the new name after a rename", () => {
    const personas = new PersonaMap(loaded.map((p) => [p.id as string, p]));
    const c = contextOver(personas);
    const id = loaded[0].id as AgentId;
    const first = c.mindContext(id, 0);
    expect(c.mindContext(loaded[1].id, 0).names).toBe(first.names);
    expect(first.names.get(id)).toBe(loaded[0].name);
    personas.set(id, { ...loaded[0], name: 'Someone Else' });
    const after = c.mindContext(id, 0);
    expect(after.names).not.toBe(first.names);
    expect(after.names.get(id)).toBe('Someone Else');
  });

  it('makes them anew on every call over a plain Map, which cannot say that it changed', () => {
    const personas = new Map(loaded.map((p) => [p.id as string, p]));
    const c = contextOver(personas);
    const before = c.mindContext(loaded[0].id, 0).names;
    personas.set(loaded[0].id, { ...loaded[0], name: 'Someone Else' });
    expect(c.mindContext(loaded[0].id, 0).names.get(loaded[0].id)).toBe('Someone Else');
    expect(before.get(loaded[0].id)).toBe(loaded[0].name);
  });
});
