// Shared test helpers: a town server on a free port with its own data folder, and polling.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { startTown, type RunningTown, type StartOptions } from '../server/src/app';
import { loadConfig, type ConfigInput } from '../server/src/config';
import { OFFLINE_RUNTIME_SETTINGS } from '../server/src/agent/context';
import { OfflineMind } from '../server/src/agent/offlineMind';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { createLogger } from '../server/src/town/logger';
import { Town } from '../server/src/town/Town';
import type { MindContext } from '../server/src/agent/mind';
import type { Persona } from '../server/src/world/persona';
import type { TownMap } from '../server/src/world/types';

export function tempDir(prefix = 'smalltown-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A town in this process, no server: the offline mind, silent, in its own data folder. */
export async function openOfflineTown(overrides: Partial<ConfigInput> = {}): Promise<Town> {
  const config = loadConfig({}, { dataDir: tempDir(), logLevel: 'silent', ...overrides });
  return Town.open(config, {
    mind: new OfflineMind(),
    embedder: loadOfflineEmbedder(),
    logger: createLogger('silent'),
    runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
  });
}

/** A server for one test file: offline mind, no idle pause, no cron jobs, quiet. */
export async function startTestTown(overrides: Partial<ConfigInput> = {}, options: StartOptions = {}): Promise<RunningTown & { dataDir: string }> {
  const dataDir = overrides.dataDir ?? tempDir();
  const town = await startTown(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      seed: 1,
      idlePauseMinutes: 0,
      backupCron: 'off',
      idleCheckCron: 'off',
      housekeepingCron: 'off',
      logLevel: 'warn',
      ...overrides,
    },
    {},
    options,
  );
  // The server starts a new world in the background (held 'starting'); a test begins with a started town.
  await town.town.whenStarted();
  return { ...town, dataDir };
}

/** Polls until `check` returns a truthy value, or fails after `timeoutMs` saying what it waited for. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000, everyMs = 50): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A persona folder with only some of the shipped personas (relationships to the others dropped). */
export function subsetPersonas(ids: string[]): string {
  const dir = tempDir('smalltown-personas-');
  for (const id of ids) {
    const doc = YAML.parse(fs.readFileSync(path.join('personas', `${id}.yaml`), 'utf8')) as { relationships?: Record<string, unknown> };
    if (doc.relationships) doc.relationships = Object.fromEntries(Object.entries(doc.relationships).filter(([other]) => ids.includes(other)));
    fs.writeFileSync(path.join(dir, `${id}.yaml`), YAML.stringify(doc));
  }
  return dir;
}

/** JSON over HTTP to a server's API, as an operator (`token`) or a spectator (null). */
export function apiClient(baseUrl: string, token: string | null) {
  const headers = (body: boolean): Record<string, string> => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
  });
  // A connection per request (no keep-alive): a socket the server closes while a test holds the event
  // loop (a lockstep run) is never reused.
  const call = <T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> =>
    new Promise((resolve, reject) => {
      const req = http.request(`${baseUrl}${url}`, { method, headers: headers(body !== undefined), agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as T }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, body: unknown) => call<T>('POST', url, body),
    put: <T>(url: string, body: unknown) => call<T>('PUT', url, body),
    del: <T>(url: string) => call<T>('DELETE', url),
  };
}

/** Three of the shipped personas, with their relationships trimmed to one another. */
export function threePersonas(ids = ['isabella', 'claire', 'omar']): string {
  const dir = tempDir('smalltown-personas-');
  for (const id of ids) {
    const doc = YAML.parse(fs.readFileSync(`personas/${id}.yaml`, 'utf8')) as { relationships: Record<string, string> };
    doc.relationships = Object.fromEntries(Object.entries(doc.relationships).filter(([k]) => ids.includes(k)));
    fs.writeFileSync(path.join(dir, `${id}.yaml`), YAML.stringify(doc));
  }
  return dir;
}

/** A mind's view of `persona` at work at home at `gameMs` in the shipped town, knowing everyone's names and no relationships. */
export function workingContext(persona: Persona, personas: Persona[], map: TownMap, gameMs = Date.UTC(2026, 1, 13, 10)): MindContext {
  return {
    agent: { persona, currentAction: 'working', currentPlace: persona.home, plan: null },
    map,
    gameMs,
    seed: 1,
    names: new Map(personas.map((p) => [p.id as string, p.name])),
    relationships: new Map(),
  };
}
