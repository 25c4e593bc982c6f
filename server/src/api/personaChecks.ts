// What the persona editor checks, apart from routing and file writes: the file saving would write for
// the form's fields and the loader's verdict on it (checkPersonaText against the town's map, exactly as
// at start-up), and what only the editor can see: an id another persona set already uses (the town's
// folder and agents, and the folders of every shipped scenario), and a bed or home someone else has.
import fs from 'node:fs';
import path from 'node:path';
import type { Town } from '../town/Town';
import type { FieldProblem } from '../protocol/personas';
import {
  checkPersonaText,
  DEFAULT_BED,
  DEFAULT_BEDROOM,
  isPersonaId,
  personaIdOf,
  readPersonaText,
  type PersonaError,
  type PersonaWarning,
} from '../world/persona';
import { renderPersonaYaml } from '../world/personaText';
import { loadScenario, personaFolders } from '../analysis/scenario';
import type { PersonaFolder } from '../town/personaFiles';
import { holdsId } from '../core/renameInJson';

/** Where the shipped scenarios live, relative to the working directory (as `npm run simulate` reads them). */
export const SHIPPED_SCENARIOS_DIR = 'scenarios';

/** A loader error by field; one about the file name (no field) is the form's `id`. */
export function problem(e: PersonaError | PersonaWarning): FieldProblem {
  if ('what' in e) return { field: e.field || 'id', message: e.what };
  const prefix = `${e.file}: ${e.field}: `;
  return { field: e.field, message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message };
}

/** One persona file of a shipped scenario's persona set, outside the town's own folder. */
interface ScenarioResident {
  file: string;
  scenario: string;
  /** Whether the scenario also runs the town's folder: then the same id in both stops it. */
  withTownFolder: boolean;
}

/** The ids of the persona sets of every shipped scenario, other than the town's own folder. A scenario that does not load is skipped. */
export function scenarioResidents(townFolder: string, scenariosDir = SHIPPED_SCENARIOS_DIR): Map<string, ScenarioResident[]> {
  const out = new Map<string, ScenarioResident[]>();
  let files: string[] = [];
  try {
    files = fs.readdirSync(scenariosDir).filter((f) => /\.ya?ml$/.test(f));
  } catch {
    return out;
  }
  const own = path.resolve(townFolder);
  for (const f of files.sort()) {
    const scenario = path.join(scenariosDir, f);
    let folders: string[];
    try {
      folders = personaFolders(loadScenario(scenario)).map((d) => path.resolve(d));
    } catch {
      continue;
    }
    const withTownFolder = folders.includes(own);
    for (const dir of folders.filter((d) => d !== own)) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(dir).filter((n) => /\.ya?ml$/.test(n));
      } catch {
        continue;
      }
      for (const n of names) {
        const id = personaIdOf(n);
        out.set(id, [...(out.get(id) ?? []), { file: path.relative(process.cwd(), path.join(dir, n)), scenario, withTownFolder }]);
      }
    }
  }
  return out;
}

/** Who sleeps where and lives where: every other persona of the town and of its folder. */
interface Resident {
  id: string;
  name: string;
  home: string | undefined;
  bed: string | undefined;
}

function bedOf(p: { home?: string; bedroom?: string; bed?: string }): string | undefined {
  return p.home ? `${p.home}: ${p.bedroom ?? DEFAULT_BEDROOM}: ${p.bed ?? DEFAULT_BED}` : undefined;
}

export class PersonaChecks {
  constructor(
    private readonly town: Town,
    private readonly folder: PersonaFolder,
    private readonly scenariosDir = SHIPPED_SCENARIOS_DIR,
  ) {}

  /** The ids a relationship may name without a warning: the folder's and the town's. */
  knownIds(id: string): Set<string> {
    return new Set([...this.folder.list().map((f) => f.id), ...this.town.personas.keys(), id]);
  }

  /**
   * The file saving would write for these fields, and the loader's verdict on it, with the editor's own
   * checks. A name that cannot be an id is checked too (the loader says what is wrong with it); nothing is read for it.
   */
  check(id: string, fields: Record<string, unknown>) {
    const valid = isPersonaId(id);
    const file = valid ? this.folder.pathOf(id) : path.join(this.folder.dir, `${id.replace(/[\\/]/g, '_')}.yaml`);
    const previous = (valid ? this.folder.read(id) : null) ?? undefined;
    const yaml = renderPersonaYaml(fields, previous);
    const checked = checkPersonaText(yaml, file, this.town.map, this.knownIds(id));
    const own = valid ? this.ownChecks(id, readPersonaText(yaml, file).draft) : { errors: [], warnings: [] };
    return {
      file,
      yaml,
      exists: previous !== undefined,
      persona: own.errors.length ? null : checked.persona,
      draft: checked.draft,
      errors: [...checked.errors.map(problem), ...own.errors],
      warnings: [...checked.warnings.map(problem), ...own.warnings],
    };
  }

  /**
   * What stops renaming `from` to `to` that only the editor sees: `to` held by another persona set a
   * shipped scenario runs with this folder, and `from` named by a shipped scenario that runs this folder
   * (its whispers would name nobody). The town refuses the rest (town/commands.ts renameAgent).
   */
  renameProblems(from: string, to: string): FieldProblem[] {
    const problems: FieldProblem[] = [];
    for (const t of scenarioResidents(this.folder.dir, this.scenariosDir).get(to) ?? [])
      if (t.withTownFolder) problems.push({ field: 'to', message: `'${to}' is taken: ${t.file}, which ${t.scenario} runs with this folder` });
    let files: string[] = [];
    try {
      files = fs.readdirSync(this.scenariosDir).filter((f) => /\.ya?ml$/.test(f));
    } catch {
      return problems;
    }
    const own = path.resolve(this.folder.dir);
    for (const f of files.sort()) {
      const file = path.join(this.scenariosDir, f);
      try {
        const { personas, ...rest } = loadScenario(file);
        if (personaFolders({ personas }).some((d) => path.resolve(d) === own) && holdsId(rest, from))
          problems.push({ field: 'id', message: `${file} runs this folder and names '${from}': change the scenario first, or it would no longer start` });
      } catch {
        continue;
      }
    }
    return problems;
  }

  /** An id a shipped scenario's other persona set holds; a bed or a home another resident has. */
  private ownChecks(id: string, draft: { home?: string; bedroom?: string; bed?: string }): { errors: FieldProblem[]; warnings: FieldProblem[] } {
    const errors: FieldProblem[] = [];
    const warnings: FieldProblem[] = [];
    const taken = scenarioResidents(this.folder.dir, this.scenariosDir).get(id) ?? [];
    for (const t of taken) {
      if (t.withTownFolder)
        errors.push({
          field: 'id',
          message: `'${id}' is already ${t.file}, which ${t.scenario} runs with this folder: it would refuse to start; pick another id`,
        });
      else warnings.push({ field: 'id', message: `'${id}' is also ${t.file} (in ${t.scenario}): a scenario run with both folders would refuse to start` });
    }
    const bed = bedOf(draft);
    for (const other of this.residents(id)) {
      if (bed && other.bed === bed)
        warnings.push({
          field: draft.bed !== undefined ? 'bed' : 'home',
          message: `the bed '${bed}' is ${other.name}'s (${other.id}): both would sleep in it; name another with 'bed:'`,
        });
      else if (draft.home && other.home === draft.home)
        warnings.push({ field: 'home', message: `${draft.home} is also the home of ${other.name} (${other.id})` });
    }
    return { errors, warnings };
  }

  /** Everyone else: the town's agents and the folder's files (a file wins over the town's copy of it). */
  private residents(except: string): Resident[] {
    const byId = new Map<string, Resident>();
    for (const p of this.town.personas.values()) byId.set(p.id, { id: p.id, name: p.name, home: p.home, bed: bedOf(p) });
    for (const { id } of this.folder.list()) {
      const text = this.folder.read(id);
      if (text === null) continue;
      const d = readPersonaText(text, this.folder.pathOf(id)).draft;
      byId.set(id, { id, name: d.name ?? id, home: d.home, bed: bedOf(d) });
    }
    byId.delete(except);
    return [...byId.values()];
  }
}
