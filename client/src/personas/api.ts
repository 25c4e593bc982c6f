// The persona editor's only contact with the server: the persona API (server/src/api/personas.ts) and
// the town's place tree (/api/town), for the world in the page's address. Writes carry the tab's
// operator token as `Authorization: Bearer`; the server checks it on every one.
import type { TownInfo } from '@protocol/api';
import type {
  PersonaCheckReply,
  PersonaFileList,
  PersonaFileView,
  PersonaRenameReply,
  PersonaSaveReply,
  PersonaSaveRefusal,
  PlanPreview,
} from '@protocol/personas';
import { withWorld } from '../net/api';

/** A refused request, with the server's words and what else it said (a save's `exists`, `readOnly`, `errors`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: PersonaSaveRefusal,
  ) {
    super(body.error);
  }
}

export class PersonaApi {
  constructor(private token: string | null) {}

  setToken(token: string | null): void {
    this.token = token;
  }

  private async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(withWorld(url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json().catch(() => ({ error: `${url}: HTTP ${res.status}` }))) as T & PersonaSaveRefusal;
    if (!res.ok) throw new ApiError(res.status, { ...json, error: json.error ?? `${url}: HTTP ${res.status}` });
    return json;
  }

  town = () => this.call<TownInfo>('GET', '/api/town');
  files = () => this.call<PersonaFileList>('GET', '/api/persona-files');
  file = (id: string) => this.call<PersonaFileView>('GET', `/api/persona-files/${encodeURIComponent(id)}`);
  check = (id: string, fields: Record<string, unknown>) =>
    this.call<PersonaCheckReply>('POST', `/api/persona-files/${encodeURIComponent(id)}/check`, { fields });
  preview = (id: string, fields: Record<string, unknown>, mind: 'offline' | 'llm') =>
    this.call<PlanPreview>('POST', `/api/persona-files/${encodeURIComponent(id)}/preview`, { fields, mind });
  save = (id: string, request: { fields: Record<string, unknown>; overwrite?: boolean; addToTown?: boolean; spawn?: string }) =>
    this.call<PersonaSaveReply>('PUT', `/api/persona-files/${encodeURIComponent(id)}`, request);
  rename = (id: string, to: string) => this.call<PersonaRenameReply>('POST', `/api/persona-files/${encodeURIComponent(id)}/rename`, { to });
  deleteFile = (id: string) => this.call<{ deleted: string }>('DELETE', `/api/persona-files/${encodeURIComponent(id)}`);
  addAgent = (personaId: string, spawn?: string) => this.call<{ added: string }>('POST', '/api/agents', spawn ? { personaId, spawn } : { personaId });
  removeAgent = (id: string) => this.call<{ removed: string }>('DELETE', `/api/agents/${encodeURIComponent(id)}`);
}
