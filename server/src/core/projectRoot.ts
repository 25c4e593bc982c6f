// Files that ship with the project, found the same way from the TypeScript source (server/src/…, run by
// tsx in `npm run dev` and the tests) and from the compiled bundle (dist/server/index.js, `npm start`).
import fs from 'node:fs';
import path from 'node:path';

/** The nearest folder at or above `from` that holds the project's package.json. */
export function projectRoot(from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'server'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no Smalltown project folder above ${from}`);
  }
}

/** `relative` (a path inside the project, e.g. 'server/assets/wordvectors') resolved from a module's own file. */
export function projectFile(moduleFile: string, relative: string): string {
  return path.join(projectRoot(moduleFile), relative);
}

/** A file or folder the way a person named it from the working folder: relative when inside it, else absolute. */
export function displayPath(file: string): string {
  const absolute = path.resolve(file);
  const relative = path.relative(process.cwd(), absolute);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}

/** A file as spectators and exports may see it: relative to the working folder when inside it, else its name alone. */
export function spectatorPath(file: string): string {
  const shown = displayPath(file);
  return path.isAbsolute(shown) ? path.basename(shown) : shown;
}

/** Absolute paths in a message cut to their file names ("/srv/data/x.sqlite: …" -> "x.sqlite: …"). */
export function hidePaths(message: string): string {
  return message.replace(/(^|[\s'"`(=:])(?:[A-Za-z]:)?[/\\](?:[^\s/\\'"`]+[/\\])+/g, '$1');
}
