// Issue 45: every `npm start` rebuilt the client (most of an 11–14 s restart). scripts/buildIfChanged.mjs
// builds a part only when its sources changed since its last build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript module (no TypeScript on npm start's path)
import { partsToBuild, recordBuilt } from '../../scripts/buildIfChanged.mjs';

type Part = { name: string; hash: string };
const names = (root: string) => (partsToBuild(root) as Part[]).map((p) => p.name);

function checkout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-build-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('client/src/main.ts', 'main');
  write('server/src/protocol/time.ts', 'time');
  write('server/src/app.ts', 'app');
  write('package-lock.json', '{}');
  write('tsconfig.json', '{}');
  write('scripts/buildServer.ts', 'build');
  write('dist/client/index.html', 'page');
  write('dist/server/start.js', 'start');
  return root;
}

describe('npm start builds only what changed', () => {
  it('builds both at first, nothing on an unchanged restart, and each part when its own sources change', () => {
    const root = checkout();
    expect(names(root)).toEqual(['client', 'server']);
    recordBuilt(root, partsToBuild(root));
    expect(names(root)).toEqual([]);
    fs.writeFileSync(path.join(root, 'client/src/main.ts'), 'main, edited');
    expect(names(root)).toEqual(['client']);
    recordBuilt(root, partsToBuild(root));
    fs.writeFileSync(path.join(root, 'server/src/app.ts'), 'app, edited');
    expect(names(root)).toEqual(['server']);
    recordBuilt(root, partsToBuild(root));
    // The protocol is shared: both.
    fs.writeFileSync(path.join(root, 'server/src/protocol/time.ts'), 'time, edited');
    expect(names(root)).toEqual(['client', 'server']);
    recordBuilt(root, partsToBuild(root));
    // A build that is gone is made again whatever the stamp says.
    fs.rmSync(path.join(root, 'dist/client'), { recursive: true });
    expect(names(root)).toEqual(['client']);
  });
});
