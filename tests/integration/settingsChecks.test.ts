// Issue 21 §7: every setting is checked at start, the message names the variable, and nothing is written
// (no data folder, no world file) before the checks pass.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSettingsOnDisk, loadConfig } from '../../server/src/config';
import { startTestTown, tempDir } from '../helpers';

describe('settings checked at start', () => {
  it('refuse a date or time that does not exist, naming START_TIME, and write no world file', async () => {
    expect(() => loadConfig({ START_TIME: '2026-13-45T99:99' })).toThrow(/START_TIME: not a real date and time/);
    expect(() => loadConfig({ START_TIME: '2026-02-30T06:00' })).toThrow(/START_TIME: not a real date and time/);
    expect(loadConfig({ START_TIME: '2028-02-29T23:59' }).startTime).toBe('2028-02-29T23:59');
    const dataDir = path.join(tempDir(), 'data');
    await expect(startTestTown({ dataDir, startTime: '2026-13-45T99:99' })).rejects.toThrow(/START_TIME/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('refuse an OPENAI_BASE_URL that is not a URL', () => {
    expect(() => loadConfig({ OPENAI_BASE_URL: 'localhost:11434' })).toThrow(/OPENAI_BASE_URL: expected an http\(s\) URL/);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'not a url' })).toThrow(/OPENAI_BASE_URL/);
    expect(loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1' }).llm.baseURL).toBe('http://localhost:11434/v1');
  });

  it('name MAP_FILE when it is a folder or not a map, without quoting the file, and write nothing', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const bad = (env: Record<string, string>) => () => checkSettingsOnDisk(loadConfig({ DATA_DIR: dataDir, ...env }));
    expect(bad({ MAP_FILE: '/tmp' })).toThrow(/MAP_FILE: '\/tmp' is a folder, not a map file/);
    expect(bad({ MAP_FILE: '/etc/passwd' })).toThrow(/MAP_FILE: '\/etc\/passwd' is not a Tiled JSON map/);
    expect(bad({ MAP_FILE: '/etc/passwd' })).not.toThrow(/root:/);
    expect(bad({ MAP_FILE: 'maps/none.tmj' })).toThrow(/MAP_FILE: 'maps\/none\.tmj' does not exist/);
    expect(bad({ PERSONAS_DIR: 'README.md' })).toThrow(/PERSONAS_DIR: 'README\.md' is a file, not a folder/);
    await expect(startTestTown({ dataDir, mapFile: '/tmp' })).rejects.toThrow(/MAP_FILE: '\/tmp' is a folder/);
    expect(fs.existsSync(dataDir)).toBe(false);
    // A control: the shipped settings pass.
    expect(() => checkSettingsOnDisk(loadConfig({ DATA_DIR: dataDir }))).not.toThrow();
  });

  it('say DATA_DIR is a file, or read-only, instead of EEXIST or EACCES', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    expect(() => checkSettingsOnDisk(loadConfig({ DATA_DIR: file }))).toThrow(/DATA_DIR: '.*a-file' is a file, not a folder/);
    // A folder without write permission; as root (which ignores permissions), a read-only mount such as /proc/sys in a container.
    const locked = tempDir();
    fs.chmodSync(locked, 0o555);
    const readOnly = [locked, '/proc/sys'].find((dir) => !canWrite(dir));
    if (!readOnly) return console.log('settings: no read-only folder on this machine; DATA_DIR read-only not checked');
    const dataDir = path.join(readOnly, 'smalltown-data');
    expect(() => checkSettingsOnDisk(loadConfig({ DATA_DIR: dataDir }))).toThrow(/DATA_DIR: '.*smalltown-data' is read-only/);
  });
});

function canWrite(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
