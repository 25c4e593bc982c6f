// `npm run import:smallville -- <checkout> --llm`: the model writes each persona from its scratch file, over
// real HTTP to the OpenAI-compatible stub, through the same settings as the town (OPENAI_BASE_URL, LLM_MODEL…).
// A good answer is used; a bad one gets one repair turn, told the loader's problems; one still bad, or an
// endpoint that is down, leaves the rules' persona, and the import report lists who and why.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importModel, importSmallville, importSmallvilleWithLlm, type ImportResult } from '../../scripts/importSmallville';
import { PERSONA_SCHEMA_NAME, type PersonaReply } from '../../scripts/smallville/llmPersonas';
import type { ImportedPersona } from '../../scripts/smallville/convertResidents';
import { ImportError } from '../../scripts/smallville/reference';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonaFolder } from '../../server/src/world/persona';
import { OpenAIStub, type StubRequest } from '../fakes/openaiStub';
import { tempDir } from '../helpers';

const CHECKOUT = 'tests/fixtures/smallville';
const envOf = (url: string) => ({ OPENAI_BASE_URL: url, LLM_MODEL: 'stub-model', LLM_MAX_RETRIES: '0', LLM_RESPONSE_FORMAT: 'json_schema' });

/** A persona as the model would write it: the rules' one, with a `currently` of the model's own. */
function replyOf(p: ImportedPersona, currently: string): PersonaReply {
  const { sprite: _sprite, relationships, ...rest } = p;
  return { ...rest, currently, relationships: Object.entries(relationships).map(([id, line]) => ({ id, line })) };
}

const residentOf = (req: StubRequest) => /scratch\.json of ([A-Z][a-z]+ [A-Z][a-z]+)/.exec(req.messages.map((m) => m.content).join('\n'))?.[1];
const isRepair = (req: StubRequest) => req.messages.some((m) => m.role === 'assistant');

describe('the importer with --llm', () => {
  let stub: OpenAIStub;
  let rules: ImportResult;
  let result: ImportResult;
  const asked: Array<{ name: string | undefined; repair: boolean; lastUser: string }> = [];

  beforeAll(async () => {
    rules = importSmallville({ checkout: CHECKOUT, outDir: path.join(tempDir(), 'rules') });
    const byName = new Map(rules.residents.map((r) => [r.persona.name, r.persona]));
    stub = await new OpenAIStub().start();
    stub.respond(PERSONA_SCHEMA_NAME, (req) => {
      const name = residentOf(req);
      asked.push({ name, repair: isRepair(req), lastUser: req.messages.at(-1)!.content });
      const p = byName.get(name!)!;
      if (name === 'Ada Quill') return replyOf(p, "Ada Quill is trying the model's new rye recipe this week.");
      if (name === 'Bram Stone') {
        // A place that does not exist first; right after the repair turn.
        const bad = replyOf(p, 'Bram Stone is sorting the attic.');
        if (!isRepair(req)) return { ...bad, routine: bad.routine.map((b, i) => (i === 1 ? { ...b, place: 'Nowhere Street: attic' } : b)) };
        return replyOf(p, 'Bram Stone is sorting his books, as the model wrote.');
      }
      // Cleo sleeps in a bed the map lacks, twice; Dov's reply is missing most of its keys, twice.
      if (name === 'Cleo Marsh') return { ...replyOf(p, 'Cleo Marsh is streaming.'), bed: 'hammock' };
      return { name: 'Dov Reyes', age: 71 };
    });
    result = await importSmallvilleWithLlm({ checkout: CHECKOUT, outDir: path.join(tempDir(), 'llm') }, importModel(envOf(stub.url)));
  });
  afterAll(() => stub?.close());

  it("uses the model's persona when the loader passes it, and after a repair turn told the loader's problem", () => {
    const { personas } = loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile));
    const by = (id: string) => personas.find((p) => p.id === id)!;
    expect(by('ada-quill').currently).toBe("Ada Quill is trying the model's new rye recipe this week.");
    expect(by('bram-stone').currently).toBe('Bram Stone is sorting his books, as the model wrote.');
    const bramRepair = asked.find((a) => a.name === 'Bram Stone' && a.repair)!;
    expect(bramRepair.lastUser).toMatch(/routine\[1\]\.place: .*Nowhere Street/);
    expect(fs.readFileSync(path.join(result.personasDir, 'ada-quill.yaml'), 'utf8')).toMatch(/--llm \(written by the model\)/);
    expect(result.llm!.map((o) => [o.id, o.source])).toEqual([
      ['ada-quill', 'model'],
      ['bram-stone', 'repaired'],
      ['cleo-marsh', 'rules'],
      ['dov-reyes', 'rules'],
    ]);
  });

  it("falls back to the rules' persona after one repair turn, and the report lists each with why", () => {
    const { personas } = loadPersonaFolder(result.personasDir, loadTownMap(result.mapFile));
    const rulesOf = (id: string) => rules.residents.find((r) => r.id === id)!.persona;
    for (const id of ['cleo-marsh', 'dov-reyes']) {
      const p = personas.find((q) => q.id === id)!;
      expect([p.currently, p.bed, p.routine.length]).toEqual([rulesOf(id).currently, rulesOf(id).bed, rulesOf(id).routine.length]);
    }
    // One first ask and one repair each: never a third.
    for (const name of ['Ada Quill', 'Bram Stone', 'Cleo Marsh', 'Dov Reyes'])
      expect(asked.filter((a) => a.name === name).length, name).toBe(name === 'Ada Quill' ? 1 : 2);
    expect(result.report).toMatch(/1 of 4 personas written by the model and passed by the persona loader at once, 1 after one repair turn, 2 by the rules/);
    expect(result.report).toMatch(/\*\*Cleo Marsh\*\* \(`cleo-marsh`\): still wrong after the repair turn: bed: .*hammock/);
    expect(result.report).toMatch(/\*\*Dov Reyes\*\* \(`dov-reyes`\): still wrong after the repair turn: \$\.innate: /);
    expect(result.report).toMatch(/\*\*Bram Stone\*\*: the model's, after a repair turn \(routine\[1\]\.place/);
    expect(rules.report).not.toMatch(/--llm/);
  });

  it("keeps the rules' personas, each listed, when the endpoint is down", async () => {
    const down = await new OpenAIStub().start();
    const url = down.url;
    await down.close();
    const r = await importSmallvilleWithLlm({ checkout: CHECKOUT, outDir: path.join(tempDir(), 'down') }, importModel(envOf(url)));
    expect(r.llm!.every((o) => o.source === 'rules' && /the endpoint failed/.test(o.reason!))).toBe(true);
    expect(r.report).toMatch(/0 of 4 personas written by the model .* 4 by the rules/);
    expect(loadPersonaFolder(r.personasDir, loadTownMap(r.mapFile)).personas).toHaveLength(4);
  });

  it('says --llm needs an endpoint when none is set, and runs from the command line', async () => {
    expect(() => importModel({})).toThrow(ImportError);
    expect(() => importModel({})).toThrow(/--llm needs an LLM: set OPENAI_BASE_URL/);
    const out = path.join(tempDir(), 'cli');
    // Not spawnSync: the stub answers from this process's event loop.
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/importSmallville.ts', CHECKOUT, '--out', out, '--llm'], {
      encoding: 'utf8',
      env: { ...process.env, ...envOf(stub.url) },
      timeout: 60_000,
    });
    expect(run.stderr).toMatch(/Ada Quill: model/);
    expect(run.stderr).toMatch(/Cleo Marsh: the rules' \(still wrong after the repair turn/);
    expect(fs.readFileSync(path.join(out, 'import-report.md'), 'utf8')).toMatch(/## Written by the model \(--llm\)/);
  });
});
