// Several towns: which one this page watches (`?world=<name>`, else the server's default), the start
// page at /towns (every running town with its agents, mind and spectators; an operator starts and
// stops towns there), and a small link to it from a town's page when more than one runs.
import type { TownList, TownSummary } from '@protocol/towns';
import { takeToken } from '../net/townConnection';
import { chosenWorld, fetchTowns, withWorld } from '../net/api';
import './towns.css';

const REFRESH_MS = 5000;

export function isTownsPage(): boolean {
  return location.pathname === '/towns' || location.pathname === '/towns/';
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

async function callApi(method: string, url: string, token: string | null, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new Error(answer.error ?? `${res.status} ${res.statusText}`);
  return answer;
}

/** The start page: drawn into its own element; the town's page elements are hidden by the stylesheet. */
export function showTownsPage(): void {
  document.body.classList.add('towns-page');
  document.title = 'Smalltown: towns';
  const token = takeToken();
  const root = el('main');
  root.id = 'towns';
  const status = el('p', '', 'towns-status');
  status.setAttribute('role', 'status');
  const table = el('table');
  const head = el('tr');
  for (const h of ['Town', 'Agents', 'Mind', 'Spectators', 'Where']) head.append(el('th', h));
  if (token) head.append(el('th', ''));
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  root.append(el('h1', 'Smalltown: towns'), table, status);
  document.body.append(root);

  const say = (text: string, isError = false) => {
    status.textContent = text;
    status.classList.toggle('error', isError);
  };
  const refresh = async () => {
    try {
      const list = (await callApi('GET', '/api/towns', null)) as TownList;
      table.tBodies[0]!.replaceChildren(...list.towns.map((t) => row(t, list.defaultWorld)));
    } catch (error) {
      say(`Could not list the towns: ${error instanceof Error ? error.message : String(error)}`, true);
    }
  };
  const row = (t: TownSummary, defaultWorld: string) => {
    const tr = el('tr');
    tr.dataset.world = t.name;
    const link = el('a', t.name);
    link.href = t.url;
    const name = el('td');
    name.append(link);
    if (t.name === defaultWorld) name.append(el('span', ' (default)', 'muted'));
    tr.append(name, el('td', String(t.agents)), el('td', t.mind), el('td', String(t.spectators)), el('td', t.here ? 'this process' : 'another process'));
    if (token) {
      const cell = el('td');
      if (t.name !== defaultWorld) {
        const stop = el('button', 'stop');
        stop.type = 'button';
        stop.addEventListener('click', () => {
          if (!confirm(`Stop the town '${t.name}'? Its world is saved and can be started again.`)) return;
          say(`stopping ${t.name}…`);
          callApi('DELETE', `/api/towns/${encodeURIComponent(t.name)}`, token).then(
            () => (say(`stopped ${t.name}`), void refresh()),
            (error: Error) => say(error.message, true),
          );
        });
        cell.append(stop);
      }
      tr.append(cell);
    }
    return tr;
  };
  if (token) root.insertBefore(startForm(token, say, refresh), status);
  void refresh();
  setInterval(() => void refresh(), REFRESH_MS);
}

/** The operator's form: a name, and optionally a map and a persona folder on the server. */
function startForm(token: string, say: (text: string, isError?: boolean) => void, refresh: () => Promise<void>): HTMLFormElement {
  const form = el('form', undefined, 'start-town');
  const input = (name: string, placeholder: string, required = false) => {
    const i = el('input');
    i.name = name;
    i.placeholder = placeholder;
    i.required = required;
    i.setAttribute('aria-label', placeholder);
    return i;
  };
  const name = input('name', 'name (letters, digits, - and _)', true);
  const map = input('map', 'map file (default: the server’s)');
  const personas = input('personas', 'persona folder (default: the server’s)');
  const submit = el('button', 'start a town');
  submit.type = 'submit';
  form.append(el('h2', 'Start a town'), name, map, personas, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body: Record<string, string> = { name: name.value.trim() };
    if (map.value.trim()) body.map = map.value.trim();
    if (personas.value.trim()) body.personas = personas.value.trim();
    say(`starting ${body.name}…`);
    callApi('POST', '/api/towns', token, body).then(
      () => (say(`started ${body.name}`), form.reset(), void refresh()),
      (error: Error) => say(error.message, true),
    );
  });
  return form;
}

/** On a town's page: a link to the start page, shown when more than one town runs. */
export function mountTownsLink(): void {
  void fetchTowns()
    .then((list) => {
      if (list.towns.length < 2) return;
      const link = el('a', `${list.towns.length} towns`);
      link.id = 'towns-link';
      link.href = '/towns';
      document.body.append(link);
    })
    .catch(() => undefined);
}
