// What the page's operator tools and inspector rest on, over real HTTP: the persona files an operator
// can add (GET /api/personas), feed lines that name who was added or removed, and the inspector's
// shelves (a whisper is not a reflection).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddablePersonasReply } from '../../server/src/protocol/api';
import type { AgentInspection } from '../../server/src/protocol/inspection';
import type { FeedItem } from '../../server/src/protocol/messages';
import type { AgentId } from '../../server/src/protocol/ids';
import { startTestTown, tempDir, waitFor } from '../helpers';

describe('operator tools over HTTP', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  const personasDir = tempDir('smalltown-personas-');

  beforeAll(async () => {
    fs.cpSync('personas', personasDir, { recursive: true });
    town = await startTestTown({ personasDir, startTime: '2026-02-13T09:30' });
  });
  afterAll(async () => {
    await town?.close();
  });

  const get = async <T>(url: string): Promise<T> => (await (await fetch(`${town.url}${url}`)).json()) as T;
  const feed = async () => (await get<{ items: FeedItem[] }>('/api/feed?limit=500')).items.map((i) => i.text);

  it('lists no persona file while every one is in town, then the new and the broken ones, each with what stops it', async () => {
    expect(await get<AddablePersonasReply>('/api/personas')).toEqual({ personas: [] });
    const claire = fs.readFileSync(path.join(personasDir, 'claire.yaml'), 'utf8');
    fs.writeFileSync(path.join(personasDir, 'nadia.yaml'), claire.replaceAll('Claire Moreau', 'Nadia Petrova'));
    fs.writeFileSync(path.join(personasDir, 'lost.yml'), claire.replaceAll('Claire Moreau', 'Lost Soul').replace('home: Moreau House', 'home: Nowhere House'));
    fs.writeFileSync(path.join(personasDir, 'broken.yaml'), 'name: [unclosed\n');
    const { personas } = await get<AddablePersonasReply>('/api/personas');
    expect(personas.map((p) => [p.id, p.name, p.problems.length > 0])).toEqual([
      ['broken', null, true],
      ['lost', 'Lost Soul', true],
      ['nadia', 'Nadia Petrova', false],
    ]);
    expect(personas[0].problems[0]).toMatch(/broken\.yaml: line \d+: YAML syntax error/);
    expect(personas[1].problems.join(' ')).toMatch(/lost\.yml: home: .*Nowhere House/);
  });

  it('names the agent in the feed when an operator adds or removes one', async () => {
    await town.town.commands.addAgent('nadia', 'test');
    await waitFor('Nadia in town', () => town.town.sim.agent('nadia'));
    expect((await get<AddablePersonasReply>('/api/personas')).personas.map((p) => p.id)).not.toContain('nadia');
    town.town.commands.removeAgent('nadia' as AgentId, 'test');
    await waitFor('Nadia gone', () => !town.town.sim.agent('nadia'));
    const lines = await feed();
    expect(lines).toContain('Operator added Nadia Petrova to the town');
    expect(lines).toContain('Operator removed Nadia Petrova from the town');
    // Her file is offered again.
    expect((await get<AddablePersonasReply>('/api/personas')).personas.map((p) => p.id)).toContain('nadia');
  });

  it('shelves a whispered thought apart from reflections, which cite their evidence', async () => {
    await town.town.commands.whisper('kenji' as AgentId, 'The council will vote on the new park benches tonight.', 'test');
    const view = await get<AgentInspection>('/api/agents/kenji');
    expect(view.whispers.map((w) => w.description)).toContain('The council will vote on the new park benches tonight.');
    expect(view.reflections.map((r) => r.description)).not.toContain('The council will vote on the new park benches tonight.');
    for (const r of view.reflections) expect(r.evidenceIds.length).toBeGreaterThan(0);
    for (const w of view.whispers) expect(w.evidenceIds).toEqual([]);
  });
});
