// Renaming a persona's id from the editor's API, over real HTTP, on a running town with a history: the
// file moves, and the agent keeps its place, plan, memories (retrieval through their shared vectors
// too), relationships both ways and events; replay of a moment before the rename shows it under the new
// id; a restart resumes it. Refusals name the field and change nothing.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonaRenameReply, PersonaSaveRefusal } from '../../server/src/protocol/personas';
import type { AgentId } from '../../server/src/protocol/ids';
import { stateAt } from '../../server/src/history/stateAt';
import { createSimWorld } from '../../server/src/sim/state';
import { PersonaChecks } from '../../server/src/api/personaChecks';
import { PersonaFolder } from '../../server/src/town/personaFiles';
import { apiClient, startTestTown, tempDir } from '../helpers';

const TOKEN = 'rename-operator';
type Running = Awaited<ReturnType<typeof startTestTown>>;

const rename = (town: Running, from: string, to: string, token: string | null = TOKEN) =>
  apiClient(town.url, token).post<PersonaRenameReply & PersonaSaveRefusal>(`/api/persona-files/${from}/rename`, { to });

const count = (town: Running, sql: string, ...args: unknown[]) =>
  town.town.db.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;

describe('renaming a persona that lives in a running town', () => {
  let town: Running;
  const personasDir = tempDir('smalltown-personas-');
  let dataDir: string;
  const before = { memories: 0, events: 0, vectors: 0, tile: -1, plan: '', relationshipsOf: 0, relationshipsTo: 0, renamedAtMs: 0, earlyMs: 0, earlyTile: -1 };

  /** What Claire has now, to compare with after the rename. */
  const measure = () => {
    const claire = town.town.sim.agent('claire')!;
    before.tile = claire.tile;
    before.plan = JSON.stringify(claire.plan);
    before.memories = town.town.db.memories.count('claire' as AgentId);
    before.vectors = count(town, 'SELECT count(*) FROM memories m JOIN memory_vectors v ON v.id = m.vector_id WHERE m.agent_id = ?', 'claire');
    before.events = count(town, 'SELECT count(*) FROM events WHERE agent_id = ?', 'claire');
    before.relationshipsOf = count(town, 'SELECT count(*) FROM relationships WHERE agent_id = ?', 'claire');
    before.relationshipsTo = count(town, 'SELECT count(*) FROM relationships WHERE other_id = ?', 'claire');
    before.renamedAtMs = town.town.clock.gameMs;
  };

  beforeAll(async () => {
    fs.cpSync('personas', personasDir, { recursive: true });
    town = await startTestTown({ operatorToken: TOKEN, personasDir, startTime: '2026-02-13T09:30' });
    dataDir = town.dataDir;
    // Half a morning: Claire has memories, a plan, walks, and meets people. Paused, so that live ticks
    // do not move her between what is measured here and the rename.
    town.town.commands.pause('test');
    await town.town.commands.step(90, 'test');
    before.earlyMs = town.town.clock.gameMs;
    before.earlyTile = town.town.sim.agent('claire')!.tile;
    await town.town.commands.step(90, 'test');
    measure();
  }, 120_000);
  afterAll(async () => {
    await town?.close();
  });

  it('refuses an id that is not one, reserved, or taken, naming the field, and a spectator; nothing changes', async () => {
    const cases: Array<[string, string, number, string, RegExp]> = [
      ['claire', 'Clara Two', 400, 'to', /lowercase letters/],
      ['claire', 'constructor', 400, 'to', /reserved/],
      ['claire', 'isabella', 409, 'to', /'isabella' is taken: isabella\.yaml/],
      ['nobody', 'somebody', 404, 'id', /no nobody\.yaml/],
      ['claire', 'claire', 400, 'to', /already/],
    ];
    for (const [from, to, status, field, message] of cases) {
      const r = await rename(town, from, to);
      expect([from, to, r.status], r.body.error).toEqual([from, to, status]);
      expect(r.body.errors![0].field).toBe(field);
      expect(r.body.errors![0].message).toMatch(message);
    }
    expect((await rename(town, 'claire', 'clara', null)).status).toBe(401);
    // While the operator's step runs, a rename is refused (it would rewrite what the step is writing).
    const stepping = town.town.commands.step(10, 'test');
    await expect(town.town.commands.renameAgent('claire', 'clara', 'test')).rejects.toThrow(/already running a lockstep run/);
    await stepping;
    measure();
    expect(fs.existsSync(path.join(personasDir, 'claire.yaml'))).toBe(true);
    expect(town.town.sim.agent('claire')).toBeDefined();
    expect(count(town, "SELECT count(*) FROM events WHERE kind = 'agent.renamed'")).toBe(0);
  });

  it('refuses an id another persona set of a scenario running this folder holds, and renaming one the scenario names', () => {
    // The shipped Valentine's scenario, pointed at this town's folder: it runs it with 15 residents of its own and whispers to Isabella.
    const scenarios = tempDir('smalltown-scenarios-');
    const text = fs.readFileSync('scenarios/valentines.yaml', 'utf8').replace(/^personas: .*$/m, `personas: [${personasDir}, scenarios/valentines/residents]`);
    fs.writeFileSync(path.join(scenarios, 'valentines.yaml'), text);
    const checks = new PersonaChecks(town.town, new PersonaFolder(personasDir), scenarios);
    expect(checks.renameProblems('claire', 'tomas')).toEqual([
      {
        field: 'to',
        message: `'tomas' is taken: scenarios/valentines/residents/tomas.yaml, which ${path.join(scenarios, 'valentines.yaml')} runs with this folder`,
      },
    ]);
    expect(checks.renameProblems('isabella', 'bella')).toEqual([
      {
        field: 'id',
        message: `${path.join(scenarios, 'valentines.yaml')} runs this folder and names 'isabella': change the scenario first, or it would no longer start`,
      },
    ]);
    expect(checks.renameProblems('claire', 'clara')).toEqual([]);
    // The shipped scenarios do not run this (temporary) folder: nothing of theirs stops a rename here.
    expect(new PersonaChecks(town.town, new PersonaFolder(personasDir)).renameProblems('isabella', 'tomas')).toEqual([]);
  });

  it('moves the file and keeps the agent: place, plan, memories and their vectors, relationships both ways, events', async () => {
    // A whisper under way as the rename is asked for: the rename waits for it, and its memory goes along.
    const whispered = town.town.commands.whisper('claire' as AgentId, 'The library gets a new reading room next week.', 'test');
    const r = await rename(town, 'claire', 'clara');
    await whispered;
    expect(r.status, r.body.error).toBe(200);
    expect(r.body).toMatchObject({ from: 'claire', to: 'clara', file: 'clara.yaml', inTown: true, relationshipsIn: ['freya', 'isabella', 'kenji', 'omar'] });
    // Observations still buffered are stored first (as at a stop), then everything moves.
    const memories = r.body.rewritten!.memories;
    expect(memories).toBeGreaterThanOrEqual(before.memories);
    expect(before.memories).toBeGreaterThan(5);
    expect(fs.existsSync(path.join(personasDir, 'claire.yaml'))).toBe(false);
    expect(YAML.parse(fs.readFileSync(path.join(personasDir, 'clara.yaml'), 'utf8')).name).toBe('Claire Moreau');
    // Other files' relationships follow, their comments kept.
    const isabella = fs.readFileSync(path.join(personasDir, 'isabella.yaml'), 'utf8');
    expect(isabella).toMatch(/^ {2}clara: Claire, the librarian/m);
    expect(isabella).not.toMatch(/^ {2}claire:/m);
    expect(isabella).toMatch(/^# /);

    const { sim, db, personas } = town.town;
    expect(sim.agent('claire')).toBeUndefined();
    const clara = sim.agent('clara')!;
    expect([clara.tile, JSON.stringify(clara.plan).replaceAll('"clara"', '"claire"')]).toEqual([before.tile, before.plan]);
    expect(personas.has('claire')).toBe(false);
    expect(personas.get('isabella')!.relationships.clara).toMatch(/librarian/);
    expect(db.memories.count('clara' as AgentId)).toBe(memories);
    expect(db.memories.count('claire' as AgentId)).toBe(0);
    expect(db.memories.search('clara' as AgentId, 'new reading room', 5)).toHaveLength(1);
    expect(count(town, 'SELECT count(*) FROM memories m JOIN memory_vectors v ON v.id = m.vector_id WHERE m.agent_id = ?', 'clara')).toBe(memories);
    expect(before.vectors).toBe(before.memories);
    expect(count(town, 'SELECT count(*) FROM memories m JOIN memory_vectors v ON v.id = m.vector_id WHERE m.agent_id = ?', 'claire')).toBe(0);
    expect(count(town, 'SELECT count(*) FROM events WHERE agent_id = ?', 'claire')).toBe(0);
    expect(count(town, 'SELECT count(*) FROM events WHERE agent_id = ?', 'clara')).toBeGreaterThanOrEqual(before.events + 1);
    expect(count(town, "SELECT count(*) FROM events WHERE instr(data, '\"claire\"') > 0 AND kind != 'agent.renamed' AND kind != 'operator.action'")).toBe(0);
    expect(count(town, 'SELECT count(*) FROM relationships WHERE agent_id = ?', 'clara')).toBe(before.relationshipsOf);
    expect(count(town, 'SELECT count(*) FROM relationships WHERE other_id = ?', 'clara')).toBe(before.relationshipsTo);
    expect(count(town, 'SELECT count(*) FROM relationships WHERE agent_id = ? OR other_id = ?', 'claire', 'claire')).toBe(0);

    // Retrieval of the old memories under the new id, with their shared vectors.
    const [query] = await town.town.embedder.embed(['books at the library']);
    const found = db.memories.retrieve({
      agentId: 'clara' as AgentId,
      query,
      nowGameMs: town.town.clock.gameMs,
      k: 5,
      weights: { recency: 1, importance: 1, relevance: 1 },
      decayPerGameHour: 0.995,
      touch: false,
    });
    expect(found).toHaveLength(5);
    expect(found.every((f) => f.memory.agentId === 'clara' && f.memory.createdGameMs <= before.renamedAtMs)).toBe(true);
    expect(found.every((f) => f.relevance > 0)).toBe(true);

    const renamed = [...db.events.scan({ kinds: ['agent.renamed'] })];
    expect(renamed.map((e) => [e.agentId, e.data])).toEqual([['clara', { from: 'claire', to: 'clara', name: 'Claire Moreau' }]]);
  });

  it('replays a moment before the rename with the agent under its new id, where it was then', () => {
    const at = stateAt(town.town.db, createSimWorld(town.town.map), before.earlyMs)!;
    const ids = at.sim.agents.map((a) => a.spec.id);
    expect(ids).toContain('clara');
    expect(ids).not.toContain('claire');
    expect(at.sim.agents.find((a) => a.spec.id === 'clara')!.tile).toBe(before.earlyTile);
  });

  it('lives on under the new id, and a restart resumes it with its history', async () => {
    await town.town.commands.step(60, 'test');
    const memories = town.town.db.memories.count('clara' as AgentId);
    expect(memories).toBeGreaterThan(before.memories);
    const tile = town.town.sim.agent('clara')!.tile;
    await town.close();
    town = await startTestTown({ operatorToken: TOKEN, personasDir, dataDir, startTime: '2026-02-13T09:30' });
    expect(town.town.resumed).toBe(true);
    expect(town.town.sim.agent('claire')).toBeUndefined();
    expect(town.town.sim.agent('clara')!.tile).toBe(tile);
    expect(town.town.db.memories.count('clara' as AgentId)).toBe(memories);
    const list = await apiClient(town.url, null).get<{ files: Array<{ id: string; inTown: boolean; problems: string[] }> }>('/api/persona-files');
    expect(list.body.files.find((f) => f.id === 'clara')).toMatchObject({ inTown: true, problems: [] });
    expect(list.body.files.find((f) => f.id === 'isabella')!.problems).toEqual([]);
  }, 120_000);

  it('renames a persona not in town as a move of its file (the world holds nothing of it)', async () => {
    fs.copyFileSync(path.join(personasDir, 'clara.yaml'), path.join(personasDir, 'nell.yaml'));
    const r = await rename(town, 'nell', 'nell-two');
    expect(r.status, r.body.error).toBe(200);
    expect(r.body).toMatchObject({ inTown: false, rewritten: null, file: 'nell-two.yaml' });
    expect(fs.existsSync(path.join(personasDir, 'nell.yaml'))).toBe(false);
  });
});
