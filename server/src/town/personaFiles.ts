// The persona folder (PERSONAS_DIR) as the persona editor reads and writes it. Writing never replaces
// a file unless asked to, is atomic (a temporary file renamed over the old one), and a folder that
// cannot be written says so plainly. What to write is decided and checked elsewhere (api/personas.ts).
import fs from 'node:fs';
import path from 'node:path';
import YAML, { isMap, isScalar } from 'yaml';
import { isPersonaId } from '../world/persona';

const PERSONA_FILE = /\.ya?ml$/;

/** Why a write or delete failed, for the HTTP answer: the file exists, the folder is read-only, or it is missing. */
export class PersonaFolderError extends Error {
  constructor(
    readonly reason: 'exists' | 'read-only' | 'missing' | 'not-a-persona',
    message: string,
  ) {
    super(message);
    this.name = 'PersonaFolderError';
  }
}

export class PersonaFolder {
  constructor(readonly dir: string) {}

  /** Every persona file's id and file name, sorted; `x.yaml` wins over `x.yml`. */
  list(): Array<{ id: string; file: string }> {
    let names: string[];
    try {
      names = fs
        .readdirSync(this.dir)
        .filter((f) => PERSONA_FILE.test(f))
        .sort();
    } catch (error) {
      throw new PersonaFolderError('missing', `cannot read the persona folder (PERSONAS_DIR): ${codeOf(error)}`);
    }
    const out = new Map<string, string>();
    for (const f of names) {
      const id = f.replace(PERSONA_FILE, '');
      if (!out.has(id) || f.endsWith('.yaml')) out.set(id, f);
    }
    return [...out].map(([id, file]) => ({ id, file }));
  }

  /** The path of a persona's file: the one there is, else where a new one goes (`<id>.yaml`). */
  pathOf(id: string): string {
    this.requireId(id);
    return [path.join(this.dir, `${id}.yaml`), path.join(this.dir, `${id}.yml`)].find((f) => fs.existsSync(f)) ?? path.join(this.dir, `${id}.yaml`);
  }

  exists(id: string): boolean {
    return fs.existsSync(this.pathOf(id));
  }

  /** The file's text, or null when there is none. */
  read(id: string): string | null {
    const file = this.pathOf(id);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  }

  /**
   * Writes a persona's file. An existing file is replaced only with `overwrite`; otherwise the write
   * fails with reason 'exists' and the file is untouched. Returns whether the file is new.
   */
  write(id: string, text: string, options: { overwrite: boolean }): { file: string; created: boolean } {
    const file = this.pathOf(id);
    const name = path.basename(file);
    const existed = fs.existsSync(file);
    if (existed && !options.overwrite) throw new PersonaFolderError('exists', `${name} already exists in the persona folder: save again to overwrite it`);
    const temporary = path.join(this.dir, `.${name}.${process.pid}.tmp`);
    try {
      // A new file is created exclusively, so two saves of one new id cannot both win.
      if (!existed) fs.writeFileSync(file, text, { flag: 'wx' });
      else {
        fs.writeFileSync(temporary, text);
        fs.renameSync(temporary, file);
      }
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw this.writeError(error, name, 'write');
    }
    return { file, created: !existed };
  }

  remove(id: string): string {
    const file = this.pathOf(id);
    const name = path.basename(file);
    if (!fs.existsSync(file)) throw new PersonaFolderError('not-a-persona', `there is no ${id}.yaml in the persona folder`);
    try {
      fs.unlinkSync(file);
    } catch (error) {
      throw this.writeError(error, name, 'delete');
    }
    return file;
  }

  /**
   * Renames the key `from` in every other file's `relationships` (a rename of that persona), keeping
   * each file's comments and order; returns the ids of the files changed.
   */
  renameRelationships(from: string, to: string): string[] {
    const changed: string[] = [];
    for (const { id } of this.list()) {
      const text = this.read(id);
      if (text === null || !text.includes(from)) continue;
      const doc = YAML.parseDocument(text);
      const relationships = doc.get('relationships', true);
      const pair = isMap(relationships) ? relationships.items.find((p) => isScalar(p.key) && p.key.value === from) : undefined;
      if (!pair || !isScalar(pair.key)) continue;
      pair.key.value = to;
      this.write(id, doc.toString({ lineWidth: 0 }), { overwrite: true });
      changed.push(id);
    }
    return changed;
  }

  private writeError(error: unknown, name: string, what: 'write' | 'delete'): Error {
    const code = codeOf(error);
    if (code === 'EEXIST') return new PersonaFolderError('exists', `${name} was created meanwhile: save again to overwrite it`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return new PersonaFolderError(
        'read-only',
        `cannot ${what} ${name}: the persona folder (PERSONAS_DIR) is read-only here (${code}); make it writable or point PERSONAS_DIR at a folder that is`,
      );
    if (code === 'ENOENT') return new PersonaFolderError('missing', `cannot ${what} ${name}: the persona folder (PERSONAS_DIR) does not exist`);
    return error instanceof Error ? error : new Error(String(error));
  }

  private requireId(id: string): void {
    if (!isPersonaId(id))
      throw new PersonaFolderError('not-a-persona', `'${id}' is not a persona id: use lowercase letters, digits and '-', starting with a letter`);
  }
}

function codeOf(error: unknown): string {
  return (error as { code?: unknown })?.code ? String((error as { code: unknown }).code) : error instanceof Error ? error.message : String(error);
}
