// Towns for benchmarks: the shipped personas cloned up to any count, each clone knowing the clones of
// its own group, written to a temporary personas folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

export function clonePersonas(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-personas-'));
  const ids = fs
    .readdirSync('personas')
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace('.yaml', ''))
    .sort();
  for (let i = 0; i < count; i++) {
    const base = ids[i % ids.length];
    const group = Math.floor(i / ids.length);
    const doc = YAML.parse(fs.readFileSync(`personas/${base}.yaml`, 'utf8')) as { name: string; relationships: Record<string, string> };
    doc.name = group === 0 ? doc.name : `${doc.name} ${group + 1}`;
    doc.relationships = Object.fromEntries(
      Object.entries(doc.relationships)
        .map(([other, text]) => [`${other}-${group * ids.length + ids.indexOf(other)}`, text] as const)
        .filter(([other]) => Number(other.split('-').pop()) < count),
    );
    fs.writeFileSync(path.join(dir, `${base}-${i}.yaml`), YAML.stringify(doc));
  }
  return dir;
}
