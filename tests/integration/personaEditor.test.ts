// The persona editor's API over real HTTP: the loader's own verdict by field, saving (never over a
// file without asking, never a file that would not load, a read-only folder said plainly), adding the
// saved persona to the running town, editing a resident from its next plan, deleting a file, a plan
// preview with each mind and its cost; and a spectator's every write refused, changing nothing.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FieldProblem,
  PersonaCheckReply,
  PersonaFileList,
  PersonaFileView,
  PersonaSaveRefusal,
  PersonaSaveReply,
  PlanPreview,
} from '../../server/src/protocol/personas';
import { checkPersonaText, loadPersonaFolder } from '../../server/src/world/persona';
import { loadTownMap } from '../../server/src/world/map';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { apiClient, startTestTown, tempDir, waitFor } from '../helpers';
import { planOfKept } from '../../server/src/protocol/plan';

const TOKEN = 'editor-operator';

/** A new persona's fields, as the form sends them: Claire's, renamed. */
function nadia(): Record<string, unknown> {
  const claire = YAML.parse(fs.readFileSync('personas/claire.yaml', 'utf8')) as Record<string, unknown>;
  return { ...claire, name: 'Nadia Petrova', seedMemories: ['Nadia Petrova has just moved to town and works at the library.'] };
}

type Town = Awaited<ReturnType<typeof startTestTown>>;

const client = (town: Town, token: string | null) => apiClient(town.url, token);

const fieldsOf = (problems: FieldProblem[]) => problems.map((p) => p.field).sort();

describe('the persona editor API', () => {
  let town: Town;
  const personasDir = tempDir('smalltown-personas-');
  let operator: ReturnType<typeof client>;

  beforeAll(async () => {
    fs.cpSync('personas', personasDir, { recursive: true });
    town = await startTestTown({ operatorToken: TOKEN, personasDir, startTime: '2026-02-13T09:30' });
    operator = client(town, TOKEN);
  });
  afterAll(async () => {
    await town?.close();
  });

  it('lists the persona folder for anyone, and shows a file with its fields and what the loader says of it', async () => {
    const anyone = client(town, null);
    const list = await anyone.get<PersonaFileList>('/api/persona-files');
    expect(list.status).toBe(200);
    expect(list.body.files.map((f) => f.id)).toContain('isabella');
    expect(list.body.files.every((f) => f.inTown && f.problems.length === 0)).toBe(true);
    expect(list.body.spawns).toContain('spawn 3');
    expect(list.body.mind.kind).toBe('offline');
    const view = await anyone.get<PersonaFileView>('/api/persona-files/isabella');
    expect(view.body.fields?.name).toBe('Isabella Rivera');
    expect(view.body.text).toBe(fs.readFileSync(path.join(personasDir, 'isabella.yaml'), 'utf8'));
    expect((await anyone.get('/api/persona-files/nobody')).status).toBe(404);
    expect((await anyone.get('/api/persona-files/Not%20An%20Id')).status).toBe(400);
  });

  it('checks the form with the loader itself: the same problems, by field, as the file would give at start-up', async () => {
    const fields = {
      ...nadia(),
      age: 'thirty',
      wakeAt: '7:00',
      home: 'Petrova House',
      sprite: { skin: '#c68863', hair: 'brown', shirt: '#123456', pants: '#123456' },
    };
    const { status, body } = await operator.post<PersonaCheckReply>('/api/persona-files/nadia/check', { fields });
    expect(status).toBe(200);
    expect(fieldsOf(body.errors)).toEqual(['age', 'home', 'sprite.hair', 'wakeAt']);
    expect(body.errors.find((e) => e.field === 'home')!.message).toMatch(/no sector 'Petrova House'.*closest first/);
    expect(body.preview).toBeNull();
    // The very text the reply shows, through the loader: the same problems.
    const map = loadTownMap(town.config.mapFile);
    const direct = checkPersonaText(body.yaml, path.join(personasDir, 'nadia.yaml'), map, new Set(town.town.personas.keys()));
    expect(direct.errors.map((e) => ({ field: e.field, message: e.what }))).toEqual(body.errors);

    const fixed = await operator.post<PersonaCheckReply>('/api/persona-files/nadia/check', { fields: nadia() });
    expect(fixed.body.errors).toEqual([]);
    expect(fixed.body.exists).toBe(false);
    expect(fixed.body.yaml.split('\n')[0]).toBe('# yaml-language-server: $schema=./persona.schema.json');
    expect(fixed.body.preview!.mind).toBe('offline');
    expect(fixed.body.preview!.plan.actions.length).toBeGreaterThan(5);
    expect(fixed.body.preview!.plan.actions.every((a) => town.town.map.arenasByAddress.has(a.address) || town.town.map.objectsByAddress.has(a.address))).toBe(
      true,
    );
    // A bad file name is the form's id field, in the loader's words; the fields are checked all the same.
    const badId = await operator.post<PersonaCheckReply>('/api/persona-files/Nadia%20P/check', { fields: { ...nadia(), age: 0 } });
    expect(badId.status).toBe(200);
    expect(badId.body.errors.map((e) => e.field)).toEqual(['id', 'age']);
    expect(badId.body.errors[0].message).toMatch(/the file name 'Nadia P' is the persona's id: use lowercase letters/);
    expect((await operator.put('/api/persona-files/Nadia%20P', { fields: nadia() })).status).toBe(400);
  });

  it('refuses to save a persona that would not load, and writes nothing', async () => {
    const { status, body } = await operator.put<PersonaSaveRefusal>('/api/persona-files/nadia', { fields: { ...nadia(), wakeAt: '25:00' } });
    expect(status).toBe(400);
    expect(body.errors?.map((e) => e.field)).toContain('wakeAt');
    expect(fs.existsSync(path.join(personasDir, 'nadia.yaml'))).toBe(false);
  });

  it('saves a new file, never overwrites one without asking, and adds the persona to the town at a spawn point, where it starts its day', async () => {
    const created = await operator.put<PersonaSaveReply>('/api/persona-files/nadia', { fields: nadia() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ file: 'nadia.yaml', created: true, added: false });
    const written = fs.readFileSync(path.join(personasDir, 'nadia.yaml'), 'utf8');
    expect(YAML.parse(written)).toEqual(nadia());

    const again = await operator.put<PersonaSaveRefusal>('/api/persona-files/nadia', { fields: { ...nadia(), age: 50 }, addToTown: true });
    expect(again.status).toBe(409);
    expect(again.body.exists).toBe(true);
    expect(again.body.error).toMatch(/nadia\.yaml already exists/);
    expect(fs.readFileSync(path.join(personasDir, 'nadia.yaml'), 'utf8')).toBe(written);
    expect(town.town.sim.agent('nadia')).toBeUndefined();

    const spawn = town.town.map.spawns.find((s) => s.name === 'spawn 3')!;
    const overwritten = await operator.put<PersonaSaveReply>('/api/persona-files/nadia', {
      fields: { ...nadia(), age: 50 },
      overwrite: true,
      addToTown: true,
      spawn: 'spawn 3',
    });
    expect(overwritten.status).toBe(200);
    expect(overwritten.body).toMatchObject({ created: false, added: true });
    expect(YAML.parse(fs.readFileSync(path.join(personasDir, 'nadia.yaml'), 'utf8')).age).toBe(50);
    const agent = await waitFor('Nadia in town', () => town.town.sim.agent('nadia'));
    const added = town.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 100_000).find((e) => e.kind === 'agent.added' && e.agentId === 'nadia');
    expect(added?.kind === 'agent.added' && added.data.tile).toBe(spawn.tile.y * town.town.map.widthTiles + spawn.tile.x);
    // She plans her day and walks off from the spawn point.
    await waitFor(
      'Nadia to plan and walk',
      () => agent.plan && town.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 100_000).some((e) => e.kind === 'agent.move' && e.agentId === 'nadia'),
      30_000,
    );
    expect(planOfKept(agent.plan!).actions.length).toBeGreaterThan(3);
  });

  it('edits a resident: recorded as an event, the mind reads it at once, and its look and hours take over at its next plan', async () => {
    const isabella = YAML.parse(fs.readFileSync(path.join(personasDir, 'isabella.yaml'), 'utf8')) as Record<string, any>;
    const shirtBefore = town.town.sim.agent('isabella')!.spec.look.shirt;
    isabella.sprite.shirt = '#00ff00';
    isabella.routine[4].activity = 'tasting the new valentine cake in the kitchen';
    const { status, body } = await operator.put<PersonaSaveReply>('/api/persona-files/isabella', { fields: isabella, overwrite: true });
    expect(status).toBe(200);
    expect(body.updatedInTown).toBe(true);
    // The file keeps its schema line and what the edit did not touch.
    const text = fs.readFileSync(path.join(personasDir, 'isabella.yaml'), 'utf8');
    expect(text).toContain('learned: >-\n  Isabella Rivera owns Hobbs Cafe');
    expect(town.town.personas.get('isabella')!.routine[4].activity).toBe('tasting the new valentine cake in the kitchen');
    await waitFor('the edit to reach the sim', () => town.town.sim.agent('isabella')!.nextSpec);
    expect(town.town.sim.agent('isabella')!.spec.look.shirt).toBe(shirtBefore);
    const events = town.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 100_000);
    const set = events.filter((e) => e.kind === 'persona.set' && e.agentId === 'isabella');
    expect(set.length).toBe(2);
    expect(events.some((e) => e.kind === 'operator.action' && e.data.action === 'edit persona' && e.data.agentId === 'isabella')).toBe(true);

    // The next day's plan request brings the new look, and the plan follows the new routine.
    const tomorrow = (Math.floor(town.town.clock.gameMs / GAME_MS_PER_DAY) + 1) * GAME_MS_PER_DAY + 14 * 3_600_000;
    await town.town.loop.runLockstep(tomorrow, 60_000);
    const agent = town.town.sim.agent('isabella')!;
    expect(agent.spec.look.shirt).toBe('#00ff00');
    expect(agent.nextSpec).toBeUndefined();
    expect(planOfKept(agent.plan!).actions.some((a) => a.description.includes('tasting the new valentine cake'))).toBe(true);
  });

  it('deletes a file only once its agent has left the town', async () => {
    const refused = await operator.del<{ error: string }>('/api/persona-files/nadia');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/remove the agent from the town first/);
    expect((await operator.del('/api/agents/nadia')).status).toBe(200);
    await waitFor('Nadia gone', () => !town.town.sim.agent('nadia'));
    const deleted = await operator.del<{ deleted: string }>('/api/persona-files/nadia');
    expect(deleted).toEqual({ status: 200, body: { deleted: 'nadia.yaml' } });
    expect(fs.existsSync(path.join(personasDir, 'nadia.yaml'))).toBe(false);
    expect((await operator.del('/api/persona-files/nadia')).status).toBe(404);
  });

  it('refuses every write of a spectator (and of a wrong token) on the server, and nothing changes', async () => {
    fs.writeFileSync(path.join(personasDir, 'olga.yaml'), YAML.stringify({ ...nadia(), name: 'Olga Berg' }));
    const folderBefore = fs.readdirSync(personasDir).map((f) => [f, fs.readFileSync(path.join(personasDir, f), 'utf8')]);
    const agentsBefore = town.town.sim.agents().map((a) => a.spec.id);
    const eventsBefore = town.town.db.events.lastSeq();
    for (const [who, expected] of [
      [client(town, null), 401],
      [client(town, 'guess'), 403],
    ] as const) {
      const tries = [
        who.put('/api/persona-files/nadia', { fields: nadia(), addToTown: true }),
        who.put('/api/persona-files/isabella', { fields: { ...nadia(), name: 'Hijacked' }, overwrite: true }),
        who.del('/api/persona-files/olga'),
        who.post('/api/persona-files/nadia/check', { fields: nadia() }),
        who.post('/api/persona-files/nadia/preview', { fields: nadia(), mind: 'offline' }),
        who.post('/api/agents', { personaId: 'olga' }),
        who.del('/api/agents/isabella'),
      ];
      for (const r of await Promise.all(tries)) expect(r.status).toBe(expected);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.readdirSync(personasDir).map((f) => [f, fs.readFileSync(path.join(personasDir, f), 'utf8')])).toEqual(folderBefore);
    expect(town.town.sim.agents().map((a) => a.spec.id)).toEqual(agentsBefore);
    expect(
      town.town.db.events.read(eventsBefore + 1, Number.MAX_SAFE_INTEGER, 10_000).filter((e) => e.kind === 'operator.action' || e.kind === 'persona.set'),
    ).toEqual([]);
    fs.rmSync(path.join(personasDir, 'olga.yaml'));
  });

  it('says plainly when the persona folder cannot be written', async (ctx) => {
    const readOnly = makeReadOnly(personasDir);
    if (!readOnly) return ctx.skip(); // neither chmod nor chattr can stop this user writing here
    try {
      const { status, body } = await operator.put<PersonaSaveRefusal>('/api/persona-files/nadia', { fields: nadia() });
      expect(status).toBe(403);
      expect(body.readOnly).toBe(true);
      expect(body.error).toMatch(/cannot write nadia\.yaml: the persona folder \(PERSONAS_DIR\) is read-only/);
      expect(body.error).not.toContain(personasDir);
    } finally {
      readOnly.undo();
    }
    expect(fs.existsSync(path.join(personasDir, 'nadia.yaml'))).toBe(false);
  });

  it('writes YAML that loads again at the next start', async () => {
    const saved = await operator.put<PersonaSaveReply>('/api/persona-files/nadia', { fields: nadia(), addToTown: true });
    expect(saved.body.added).toBe(true);
    const map = loadTownMap(town.config.mapFile);
    expect(loadPersonaFolder(personasDir, map).personas.map((p) => p.id)).toContain('nadia');
    const dataDir = town.dataDir;
    await town.close();
    // Resumed from its own file…
    town = await startTestTown({ operatorToken: TOKEN, personasDir, dataDir });
    expect(town.town.resumed).toBe(true);
    // An arrival the last run had not stepped yet joins at the first step.
    expect((await waitFor('Nadia back in town', () => town.town.sim.agent('nadia'))).spec.name).toBe('Nadia Petrova');
    expect(town.town.sim.agent('isabella')!.spec.look.shirt).toBe('#00ff00');
    await town.close();
    // …and as a new world.
    town = await startTestTown({ operatorToken: TOKEN, personasDir, startTime: '2026-02-13T09:30' });
    expect(town.town.sim.agent('nadia')?.spec.name).toBe('Nadia Petrova');
  });
});

describe('the plan preview with an LLM', () => {
  let stub: OpenAIStub;
  let town: Town;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub().start());
    town = await startTestTown({
      operatorToken: TOKEN,
      startTime: '2026-02-13T09:30',
      llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', prices: { 'stub-model': { inputPerMTok: 1, outputPerMTok: 2 } } },
    });
  }, 60_000);
  afterAll(async () => {
    await town?.close();
    await stub?.close();
  });

  it('plans through the town\u2019s LLM, says what it cost, and logs the calls as the preview\u2019s', async () => {
    const operator = client(town, TOKEN);
    const before = stub.stats.requests;
    const { status, body } = await operator.post<PlanPreview>('/api/persona-files/juniper/preview', { fields: nadia(), mind: 'llm' });
    expect(status).toBe(200);
    expect(body.mind).toBe('llm');
    expect(body.label).toMatch(/^llm: stub-model/);
    expect(body.plan.broadStrokes).toContain('work for most of the day');
    // The live town calls the stub meanwhile: the preview's own calls are the ones logged under its tag.
    // The plan, its hour blocks, and the day's actions in two parts.
    expect(body.cost!.calls).toBe(4);
    expect(stub.stats.requests - before).toBeGreaterThanOrEqual(4 - body.cost!.cachedCalls);
    expect(body.cost!.promptTokens).toBeGreaterThan(0);
    expect(body.cost!.usd).toBeCloseTo((body.cost!.promptTokens * 1 + body.cost!.completionTokens * 2) / 1e6, 10);
    const logged = town.town.db.db
      .prepare("SELECT sum(cached) AS cached, count(*) AS calls, sum(prompt_tokens) AS prompt FROM llm_calls WHERE agent_id = 'preview:juniper'")
      .get();
    expect(logged).toEqual({ cached: body.cost!.cachedCalls, calls: 4, prompt: body.cost!.promptTokens });
    // Nothing of her in the world: no file, no agent, no memories.
    expect(town.town.sim.agent('juniper')).toBeUndefined();
    expect(fs.existsSync(path.join(town.config.personasDir, 'juniper.yaml'))).toBe(false);
  });

  it("refuses an id a shipped scenario already runs with this folder (the Valentine residents' nadia), and writes nothing", async () => {
    // This town runs the shipped personas/ folder, as scenarios/valentines.yaml does with valentines/residents.
    const operator = client(town, TOKEN);
    const checked = await operator.post<PersonaCheckReply>('/api/persona-files/nadia/check', { fields: nadia() });
    expect(checked.body.errors).toEqual([
      {
        field: 'id',
        message: expect.stringMatching(
          /'nadia' is already scenarios\/valentines\/residents\/nadia\.yaml, which scenarios\/valentines\.yaml runs with this folder/,
        ),
      },
    ]);
    const saved = await operator.put<PersonaSaveRefusal>('/api/persona-files/nadia', { fields: nadia() });
    expect(saved.status).toBe(400);
    expect(saved.body.errors!.map((e) => e.field)).toEqual(['id']);
    expect(fs.existsSync('personas/nadia.yaml')).toBe(false);
    // The control: another id has no such problem.
    expect((await operator.post<PersonaCheckReply>('/api/persona-files/juniper/check', { fields: nadia() })).body.errors).toEqual([]);
  });

  it('warns of a bed or a home someone else has, naming who', async () => {
    const operator = client(town, TOKEN);
    const check = async (fields: Record<string, unknown>) =>
      (await operator.post<PersonaCheckReply>('/api/persona-files/juniper/check', { fields: { ...nadia(), ...fields } })).body;
    // Claire's fields, so Claire's bed in Moreau House.
    const same = await check({});
    expect(same.errors).toEqual([]);
    expect(same.warnings).toContainEqual({ field: 'home', message: expect.stringMatching(/the bed 'Moreau House: bedroom: bed' is Claire .*\(claire\)/) });
    const freya = await check({ home: 'Lindqvist House' });
    expect(freya.warnings).toContainEqual({ field: 'home', message: expect.stringMatching(/'Lindqvist House: bedroom: bed' is Freya Lindqvist's \(freya\)/) });
    // Yumi's second bed, named: under the bed field.
    const yumi = await check({ home: 'Tanaka House', bed: 'bed 2' });
    expect(yumi.warnings).toContainEqual({ field: 'bed', message: expect.stringMatching(/'Tanaka House: bedroom: bed 2' is Yumi .*\(yumi\)/) });
    // The control: a sector nobody lives in raises neither.
    const empty = town.town.map.places.sectors.map((s) => s.name).find((n) => ![...town.town.personas.values()].some((p) => p.home === n))!;
    expect((await check({ home: empty })).warnings.map((w) => w.message).join('\n')).not.toMatch(/is also the home|the bed .* is/);
  });

  it('the offline preview stays free on an LLM town; on an offline town the LLM preview is refused', async () => {
    const operator = client(town, TOKEN);
    const offline = await operator.post<PlanPreview>('/api/persona-files/juniper/preview', { fields: nadia(), mind: 'offline' });
    expect(offline.body.cost).toBeNull();
    const plain = await startTestTown({ operatorToken: TOKEN });
    try {
      const refused = await client(plain, TOKEN).post<{ error: string }>('/api/persona-files/juniper/preview', { fields: nadia(), mind: 'llm' });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(/offline mind/);
    } finally {
      await plain.close();
    }
  });
});

/** Makes a folder unwritable for this process: chmod for a normal user, `chattr +i` for root; null when neither works. */
function makeReadOnly(dir: string): { undo(): void } | null {
  const probe = path.join(dir, '.probe');
  const writable = () => {
    try {
      fs.writeFileSync(probe, '');
      fs.rmSync(probe);
      return true;
    } catch {
      return false;
    }
  };
  fs.chmodSync(dir, 0o555);
  if (!writable()) return { undo: () => fs.chmodSync(dir, 0o755) };
  fs.chmodSync(dir, 0o755);
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  if (!writable()) return { undo: () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' }) };
  execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  return null;
}
