// The persona editor (/personas): create or edit a persona with a form made from the published schema,
// see the loader's problems under each field as you type, pick places on a plan of the town or in its
// place tree, preview the day plan and the look, save the YAML file, and bring the persona into town.
// An operator's page (the tab's operator token); anyone else sees the files read-only. Every write is
// checked by the server, whatever this page shows.
import type { TownInfo } from '@protocol/api';
import type { PersonaCheckReply, PersonaFileList, PlanPreview } from '@protocol/personas';
import type { PlaceTree } from '@protocol/places';
import schema from '../../../personas/persona.schema.json';
import { chosenWorld } from '../net/api';
import { forgetToken, rememberToken, takeToken } from '../net/token';
import { el } from '../ui/dom';
import { ApiError, PersonaApi } from './api';
import { PersonaForm, type PlaceControl } from './form';
import { PlaceMap } from './placeMap';
import { LookPreview, renderPlan } from './preview';
import { fieldsOf, type JsonSchema, type PlaceKind } from './schemaFields';

declare global {
  interface Window {
    /** Test hooks for the browser tests: what the page shows, and where to click. */
    __personaEditor?: {
      ready: boolean;
      role: 'operator' | 'spectator';
      /** Checks answered by the server so far. */
      checks: number;
      lastCheck(): PersonaCheckReply | null;
      /** Page coordinates of a place on the plan, for a real click. */
      placePosition(address: string): { x: number; y: number } | null;
    };
  }
}

const CHECK_DELAY_MS = 350;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const token = takeToken();
const api = new PersonaApi(token);
let role: 'operator' | 'spectator' = 'spectator';
let town: TownInfo;
let files: PersonaFileList;
/** The file being edited, or null for a new persona. */
let editing: string | null = null;
let lastCheck: PersonaCheckReply | null = null;
let checkSeq = 0;
let checkTimer: number | undefined;
let target: PlaceControl | null = null;

const hooks: NonNullable<Window['__personaEditor']> = {
  ready: false,
  role: 'spectator',
  checks: 0,
  lastCheck: () => lastCheck,
  placePosition: (address) => map.positionOf(address),
};
window.__personaEditor = hooks;

const form = new PersonaForm(fieldsOf(schema as JsonSchema), {
  placeOptions: (kind) => placeOptions(kind),
  target: (control) => setTarget(control),
  people: () => people(),
  changed: () => changed(),
});
let map: PlaceMap;
const look = new LookPreview();

function say(text: string, kind: '' | 'ok' | 'error' = ''): void {
  const status = $('save-status');
  status.textContent = text;
  status.className = kind;
}

function notice(text: string | null, ...extra: Node[]): void {
  const box = $('notice');
  box.hidden = text === null;
  box.replaceChildren(text ?? '', ...extra);
}

// ---- places ----

function tree(): PlaceTree {
  return town.places;
}

function text(key: string): string {
  const v = form.field(key);
  return typeof v === 'string' ? v.trim() : '';
}

function placeOptions(kind: PlaceKind): string[] {
  const home = tree().sectors.find((s) => s.name === text('home'));
  const bedroom = home?.arenas.find((a) => a.name === (text('bedroom') || 'bedroom'));
  const work = text('workplace');
  const arenas = tree().sectors.flatMap((s) => s.arenas);
  switch (kind) {
    case 'sector':
      return tree().sectors.map((s) => s.name);
    case 'arenaOfHome':
      return home?.arenas.map((a) => a.name) ?? [];
    case 'objectOfBedroom':
      return bedroom?.objects.map((o) => o.name) ?? [];
    case 'arena':
      return arenas.map((a) => a.address);
    case 'placeRef': {
      const out: string[] = [];
      for (const a of home?.arenas ?? []) out.push(`home: ${a.name}`, ...a.objects.map((o) => `home: ${a.name}: ${o.name}`));
      const workArena = arenas.find((a) => a.address === work);
      if (workArena) out.push('work', ...workArena.objects.map((o) => `work: ${o.name}`));
      for (const a of arenas) out.push(a.address, ...a.objects.map((o) => o.address));
      return out;
    }
  }
}

function setTarget(control: PlaceControl | null): void {
  target?.setTargeted(false);
  target = control;
  control?.setTargeted(true);
  const hint = $('pick-hint');
  if (role !== 'operator') return;
  hint.className = control ? 'picking' : 'muted';
  hint.textContent = control
    ? `Picking ${control.path} (${control.spec.label.toLowerCase()}): click a place on the plan or in the tree.`
    : 'Click 📍 beside a place field (or into it), then a building on the plan or a place in the tree.';
}

/** What a picked address means for the field being picked: a sector, an arena of home, "home: …", "work: …". */
function valueFor(kind: PlaceKind, address: string): { value: string } | { refused: string } {
  const [sector, arena, object] = address.split(': ');
  const home = text('home');
  const bedroom = text('bedroom') || 'bedroom';
  const work = text('workplace');
  switch (kind) {
    case 'sector':
      return { value: sector };
    case 'arenaOfHome':
      return sector === home ? { value: arena } : { refused: `${sector}: ${arena} is not in the home (${home || 'no home yet'}): pick a room of it` };
    case 'objectOfBedroom':
      if (sector !== home || arena !== bedroom) return { refused: `pick an object in ${home || 'the home'}: ${bedroom}` };
      return object ? { value: object } : { refused: `pick an object (a bed) in ${home}: ${bedroom}, not the room` };
    case 'arena':
      return { value: `${sector}: ${arena}` };
    case 'placeRef':
      if (sector === home) return { value: `home: ${arena}${object ? `: ${object}` : ''}` };
      if (`${sector}: ${arena}` === work) return { value: object ? `work: ${object}` : 'work' };
      return { value: address };
  }
}

function pick(address: string): void {
  const hint = $('pick-hint');
  if (!target || role !== 'operator') {
    hint.className = 'muted';
    hint.textContent = `${address}${role === 'operator' ? ': click 📍 beside a place field first' : ''}`;
    return;
  }
  const r = valueFor(target.place, address);
  if ('refused' in r) {
    hint.className = 'refused';
    hint.textContent = r.refused;
    return;
  }
  target.pick(r.value);
  hint.className = 'picking';
  hint.textContent = `${target.path} = ${r.value}`;
}

/** The places the persona names, marked on the plan. */
function markPlaces(): void {
  const marks = new Map<string, string>();
  const home = text('home');
  const work = text('workplace');
  const bed = `${home}: ${text('bedroom') || 'bedroom'}: ${text('bed') || 'bed'}`;
  marks.set(bed, 'bed');
  if (work) marks.set(work, 'work');
  const routine = form.field('routine');
  (Array.isArray(routine) ? routine : []).forEach((block: unknown, i) => {
    const place = (block as { place?: unknown })?.place;
    for (const ref of Array.isArray(place) ? place : [place]) {
      if (typeof ref !== 'string' || !ref.trim()) continue;
      const [head, ...rest] = ref.split(':').map((p) => p.trim());
      const address = head === 'home' ? [home, ...rest].join(': ') : head === 'work' ? [work, ...rest].join(': ') : ref.trim();
      if (!marks.has(address)) marks.set(address, String(i + 1));
    }
  });
  map.mark(marks);
}

function people(): Array<{ id: string; name: string }> {
  const self = form.id;
  const byId = new Map<string, string>();
  for (const a of town.agents) byId.set(a.id, a.name);
  for (const f of files.files) if (!byId.has(f.id)) byId.set(f.id, `${f.name ?? f.id}${f.inTown ? '' : ' (file, not in town)'}`);
  return [...byId].filter(([id]) => id !== self).map(([id, name]) => ({ id, name }));
}

// ---- checking as you type ----

function changed(): void {
  const sprite = form.field('sprite') as Record<string, string> | undefined;
  if (sprite) look.show({ skin: sprite.skin ?? '', hair: sprite.hair ?? '', shirt: sprite.shirt ?? '', pants: sprite.pants ?? '' });
  markPlaces();
  // A new persona's file name follows its first name until it is typed.
  if (!editing && !form.idTouched) {
    const first =
      text('name')
        .split(/\s+/)[0]
        ?.toLowerCase()
        .replace(/[^a-z0-9-]/g, '') ?? '';
    form.idField.value = first;
  }
  if (role !== 'operator') return;
  window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(() => void check(), CHECK_DELAY_MS);
}

/** Sends the fields to the loader on the server; shows its problems by field, the YAML and the offline plan. */
async function check(): Promise<PersonaCheckReply | null> {
  const seq = ++checkSeq;
  const id = form.id;
  let reply: PersonaCheckReply;
  try {
    reply = await api.check(id || 'untitled', form.value());
  } catch (error) {
    if (seq === checkSeq) say(`Could not check: ${error instanceof Error ? error.message : String(error)}`, 'error');
    return null;
  }
  if (seq !== checkSeq) return null;
  // The file name is required before anything is saved; what it may be is the loader's to say.
  if (!id)
    reply = { ...reply, errors: [{ field: 'id', message: "required: the file name is the persona's id (lowercase letters, digits and -)" }, ...reply.errors] };
  lastCheck = reply;
  hooks.checks++;
  form.noteOnId(!editing && reply.exists ? `${id}.yaml already exists: saving will ask before replacing it (or choose another file name).` : '');
  form.showProblems(reply.errors, reply.warnings);
  $('yaml').textContent = reply.yaml;
  const host = $('plan-host');
  if (reply.preview) host.replaceChildren(renderPlan(reply.preview));
  else host.replaceChildren(el('p', { className: 'muted', textContent: 'The day plan shows here once the persona has no problems.' }));
  host.className = reply.preview ? '' : 'muted';
  $('llm-preview').toggleAttribute('disabled', !reply.preview);
  updateSaveButton();
  return reply;
}

function updateSaveButton(): void {
  const save = $<HTMLButtonElement>('save');
  const id = form.id;
  const inTown = lastCheck?.inTown ?? false;
  save.textContent = editing ? `Save changes to ${id}.yaml` : `Save ${id || 'persona'}${id ? '.yaml' : ''}`;
  const add = $<HTMLInputElement>('add-to-town');
  add.disabled = inTown;
  add.parentElement!.title = inTown ? 'already in town: saved changes apply from its next plan' : '';
  $<HTMLSelectElement>('spawn').disabled = inTown || !add.checked;
}

// ---- saving ----

async function save(overwrite = false): Promise<void> {
  window.clearTimeout(checkTimer);
  form.revealAll = true;
  // What the last save said is not about this one: it goes at once, not when the check answers.
  say('Checking…');
  const checked = await check();
  if (!checked) {
    // Superseded by a newer check (typing), or the check failed and said so: not saved, and nothing left "checking".
    if ($('save-status').textContent === 'Checking…') say('');
    return;
  }
  if (checked.errors.length) {
    say(`Not saved: fix the ${checked.errors.length} problem${checked.errors.length === 1 ? '' : 's'} marked in the form.`, 'error');
    (form.root.querySelector('.invalid input, .invalid textarea') as HTMLElement | null)?.focus();
    return;
  }
  const id = form.id;
  const addToTown = $<HTMLInputElement>('add-to-town').checked && !checked.inTown;
  const spawn = $<HTMLSelectElement>('spawn').value || undefined;
  say('Saving…');
  try {
    const reply = await api.save(id, { fields: form.value(), overwrite: overwrite || editing === id, addToTown, spawn: addToTown ? spawn : undefined });
    const name = text('name');
    const parts = [`Saved ${reply.file}.`];
    if (reply.added) parts.push(`${name} joins the town${spawn ? ` at ${spawn}` : ''} and starts the day.`);
    if (reply.updatedInTown) parts.push(`${name} lives in the town: the changes apply from their next plan.`);
    if (reply.warnings.length) parts.push(`Warnings: ${reply.warnings.map((w) => `${w.field}: ${w.message}`).join('; ')}`);
    say(parts.join(' '), 'ok');
    await refreshFiles();
    open(id, { keepForm: true });
  } catch (error) {
    if (error instanceof ApiError && error.body.exists) return confirmOverwrite(id, error.message);
    if (error instanceof ApiError && error.body.errors) form.showProblems(error.body.errors, []);
    say(`Not saved: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}

/** A file of this id exists: ask before replacing it. */
function confirmOverwrite(id: string, message: string): void {
  const box = $('confirm');
  const replace = el('button', { type: 'button', className: 'danger', textContent: `Replace ${id}.yaml` });
  const cancel = el('button', { type: 'button', textContent: 'Keep the file' });
  replace.addEventListener('click', () => {
    box.hidden = true;
    void save(true);
  });
  cancel.addEventListener('click', () => {
    box.hidden = true;
    say(`Not saved: ${id}.yaml is left as it was. Choose another file name to save this persona as a new one.`);
  });
  showConfirm($('save-buttons'), 'replace the file?', el('p', { textContent: message.replace(/: save again to overwrite it$/, '.') }), replace, ' ', cancel);
  say('');
  replace.focus();
}

// ---- the files ----

async function refreshFiles(): Promise<void> {
  [files, town] = await Promise.all([api.files(), api.town()]);
  const list = $('files');
  // A confirmation open in a row goes back beside the save buttons, hidden, before the rows are redrawn.
  const box = $('confirm');
  if (list.contains(box)) {
    box.hidden = true;
    $('save-buttons').after(box);
  }
  list.replaceChildren(
    ...files.files.map((f) => {
      const actions = el('span', { className: 'file-actions' });
      const button = (label: string, run: () => Promise<unknown> | void, className = 'link') => {
        const b = el('button', { type: 'button', className, textContent: label });
        b.addEventListener('click', () => void run());
        actions.append(b);
        return b;
      };
      button(role === 'operator' ? 'edit' : 'view', () => open(f.id));
      if (role === 'operator') {
        if (f.inTown) button('remove from town', () => act(() => api.removeAgent(f.id), `${f.name ?? f.id} leaves the town (the file stays).`));
        else {
          if (!f.problems.length) button('add to town', () => act(() => api.addAgent(f.id), `${f.name ?? f.id} joins the town.`));
          button('delete file', () => confirmDelete(f.id, actions));
        }
      }
      const li = el(
        'li',
        { className: f.id === editing ? 'current' : '' },
        el('span', { className: 'file-name', textContent: `${f.name ?? '(no name)'} · ${f.file}` }),
        f.inTown ? el('span', { className: 'in-town', textContent: 'in town' }) : '',
        f.problems.length
          ? el('span', { className: 'broken', textContent: ` ${f.problems.length} problem${f.problems.length === 1 ? '' : 's'}`, title: f.problems.join('\n') })
          : '',
        actions,
      );
      li.dataset.id = f.id;
      return li;
    }),
    ...files.agentsWithoutFile.map((a) => {
      const li = el(
        'li',
        {},
        el('span', { className: 'file-name', textContent: `${a.name} · no file` }),
        el('span', { className: 'in-town', textContent: 'in town' }),
      );
      if (role === 'operator') {
        const b = el('button', { type: 'button', className: 'link', textContent: 'remove from town' });
        b.addEventListener('click', () => void act(() => api.removeAgent(a.id), `${a.name} leaves the town.`));
        li.append(el('span', { className: 'file-actions' }, b));
      }
      return li;
    }),
  );
  form.relationships()?.refreshPeople();
}

async function act(run: () => Promise<unknown>, done: string): Promise<void> {
  try {
    await run();
    say(done, 'ok');
  } catch (error) {
    say(error instanceof Error ? error.message : String(error), 'error');
  }
  // The town applies additions and removals at its next step.
  window.setTimeout(() => void refreshFiles(), 400);
}

/**
 * Shows the confirmation box right after the control that asked for it (the file's row, the save
 * buttons), where the user is looking, and brings it into view.
 */
function showConfirm(anchor: Element, label: string, ...content: Array<Node | string>): void {
  const box = $('confirm');
  box.setAttribute('aria-label', label);
  box.replaceChildren(...content);
  anchor.after(box);
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

function confirmDelete(id: string, anchor: Element): void {
  const box = $('confirm');
  const yes = el('button', { type: 'button', className: 'danger', textContent: `Delete ${id}.yaml` });
  const no = el('button', { type: 'button', textContent: 'Keep it' });
  yes.addEventListener('click', () => {
    box.hidden = true;
    void act(async () => {
      await api.deleteFile(id);
      if (editing === id) newPersona();
    }, `Deleted ${id}.yaml.`);
  });
  no.addEventListener('click', () => (box.hidden = true));
  showConfirm(anchor, 'delete the file?', el('p', { textContent: `Delete the file ${id}.yaml from the persona folder? This cannot be undone.` }), yes, ' ', no);
  no.focus();
}

/**
 * A new id for the file being edited, asked beside the id field. The id is the file's name and the key of
 * the persona's history in the town (memories, relationships, replay): renaming keeps all of it under the
 * new id; the name people see is the Name field, changed by saving.
 */
function confirmRename(id: string): void {
  const box = $('confirm');
  const entry = files.files.find((f) => f.id === id);
  const input = el('input', { type: 'text', value: id, size: 16 });
  input.setAttribute('aria-label', 'new id');
  const problems = el('div', { className: 'field-errors', role: 'alert' });
  const go = el('button', { type: 'button', className: 'danger', textContent: 'Rename' });
  const cancel = el('button', { type: 'button', textContent: 'Cancel' });
  const label = () => (go.textContent = input.value.trim() && input.value.trim() !== id ? `Rename to ${input.value.trim()}` : 'Rename');
  input.addEventListener('input', () => {
    problems.replaceChildren();
    label();
  });
  const submit = async () => {
    const to = input.value.trim();
    go.disabled = true;
    try {
      const reply = await api.rename(id, to);
      box.hidden = true;
      const kept = reply.rewritten
        ? ` Their history (${reply.rewritten.memories} memories, ${reply.rewritten.relationships} relationships) goes with them.`
        : '';
      const others = reply.relationshipsIn.length ? ` Relationships in ${reply.relationshipsIn.map((o) => `${o}.yaml`).join(', ')} now name ${to}.` : '';
      say(`Renamed ${id}.yaml to ${reply.file}${reply.inTown ? '; the agent stays where it is, under the new id' : ''}.${kept}${others}`, 'ok');
      await refreshFiles();
      await open(to);
    } catch (error) {
      const lines =
        error instanceof ApiError && error.body.errors ? error.body.errors.map((e) => e.message) : [String(error instanceof Error ? error.message : error)];
      problems.replaceChildren(...lines.map((line) => el('div', { textContent: line })));
      input.focus();
    } finally {
      go.disabled = false;
    }
  };
  go.addEventListener('click', () => void submit());
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') void submit();
    if (e.key === 'Escape') box.hidden = true;
  });
  cancel.addEventListener('click', () => (box.hidden = true));
  showConfirm(
    form.idActions,
    'rename the persona?',
    el(
      'p',
      {},
      `A new id for ${entry?.name ?? id}: the file becomes <id>.yaml` +
        `${entry?.inTown ? ', and the agent in town keeps its place, plans, memories and relationships under it' : ''}. ` +
        'To change the name people see, edit Name instead and save.',
    ),
    el('label', {}, 'New id ', input, el('span', { className: 'muted', textContent: '.yaml' })),
    problems,
    go,
    ' ',
    cancel,
  );
  input.select();
}

/** Opens a file in the form (or, after a save, marks the form as that file's). */
async function open(id: string, options: { keepForm?: boolean } = {}): Promise<void> {
  if (!options.keepForm) {
    let view;
    try {
      view = await api.file(id);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), 'error');
      return;
    }
    form.set(id, view.fields ?? {});
    form.revealAll = true;
    // An operator's form is checked below; anyone else sees the problems the file has now.
    if (role !== 'operator') form.showProblems(view.errors, []);
  }
  editing = id;
  form.idField.readOnly = true;
  form.idActions.replaceChildren();
  if (role === 'operator') {
    const rename = el('button', { type: 'button', className: 'link', textContent: 'rename…', title: 'Give this persona another id (its file name)' });
    rename.addEventListener('click', () => confirmRename(id));
    form.idActions.append(rename);
  }
  const entry = files.files.find((f) => f.id === id);
  $('editor-title').textContent =
    `${role === 'operator' ? 'Editing' : 'Viewing'} ${entry?.name ?? id} (${entry?.file ?? `${id}.yaml`})${entry?.inTown ? ' · in town' : ''}`;
  for (const li of $('files').querySelectorAll('li')) li.classList.toggle('current', (li as HTMLElement).dataset.id === id);
  const url = new URL(location.href);
  url.searchParams.set('edit', id);
  history.replaceState(history.state, '', url.toString());
  $('llm-plan-host').replaceChildren();
  changed();
  if (role === 'operator') await check();
}

function newPersona(): void {
  editing = null;
  form.idField.readOnly = false;
  form.idActions.replaceChildren();
  form.revealAll = false;
  form.set('', blankPersona());
  $('editor-title').textContent = 'New persona';
  say('');
  $('llm-plan-host').replaceChildren();
  for (const li of $('files').querySelectorAll('li')) li.classList.remove('current');
  const url = new URL(location.href);
  url.searchParams.delete('edit');
  history.replaceState(history.state, '', url.toString());
  changed();
}

/** A new persona's starting point: hours, one routine block and a look; the rest is to be written. */
function blankPersona(): Record<string, unknown> {
  return {
    wakeAt: '07:00',
    sleepAt: '23:00',
    innate: [''],
    routine: [{ at: '07:00', activity: '', place: '', emoji: '🌅' }],
    seedMemories: [''],
    sprite: { skin: '#d8a47f', hair: '#3b2a1e', shirt: '#4a7ab5', pants: '#2f3b4c' },
  };
}

// ---- start ----

async function start(): Promise<void> {
  [town, files] = await Promise.all([api.town(), api.files()]);
  $('world').textContent = town.name;
  const world = chosenWorld();
  $<HTMLAnchorElement>('town-link').href = world ? `/?world=${encodeURIComponent(world)}` : '/';
  $('mind').textContent = `mind: ${files.mind.label}`;
  role = await probeRole();
  hooks.role = role;
  const badge = $('role');
  badge.textContent = role;
  badge.className = `badge ${role}`;
  $('token-form').hidden = role === 'operator';
  form.setReadOnly(role !== 'operator');
  for (const id of ['save-section', 'new-persona']) $(id).hidden = role !== 'operator';
  if (role !== 'operator') {
    $('pick-hint').textContent = 'The places this persona names are marked on the plan.';
    $('plan-host').textContent = 'Operators see the day plan this persona would make here.';
  }

  map = new PlaceMap(town.places, pick);
  $('map-host').append(map.canvas);
  $('tree-host').append(map.tree);
  map.resize($('map-host').clientWidth || 480);
  window.addEventListener('resize', () => map.resize($('map-host').clientWidth || 480));
  $('look-host').append(look.canvas);
  $('form-host').append(form.root);

  const spawn = $<HTMLSelectElement>('spawn');
  spawn.replaceChildren(
    el('option', { value: '', textContent: 'where it would start (a spawn named after it, else its bed)' }),
    ...files.spawns.map((s) => el('option', { value: s, textContent: s })),
  );
  $('add-to-town').addEventListener('change', updateSaveButton);
  $('save').addEventListener('click', () => void save());
  $('new-persona').addEventListener('click', newPersona);
  const llm = $<HTMLButtonElement>('llm-preview');
  llm.hidden = files.mind.kind !== 'llm' || role !== 'operator';
  llm.textContent = `Preview with the LLM (${files.mind.label}; it costs tokens)`;
  llm.addEventListener('click', () => void previewWithLlm());

  await refreshFiles();
  const asked = new URLSearchParams(location.search).get('edit');
  if (asked && files.files.some((f) => f.id === asked)) await open(asked);
  else if (role !== 'operator' && files.files.length) await open(files.files[0].id);
  else newPersona();
  hooks.ready = true;
}

async function previewWithLlm(): Promise<void> {
  const host = $('llm-plan-host');
  const button = $<HTMLButtonElement>('llm-preview');
  button.disabled = true;
  host.replaceChildren(el('p', { className: 'muted', textContent: 'Asking the LLM…' }));
  try {
    const preview: PlanPreview = await api.preview(form.id, form.value(), 'llm');
    host.replaceChildren(renderPlan(preview));
  } catch (error) {
    host.replaceChildren(el('p', { className: 'field-errors', textContent: error instanceof Error ? error.message : String(error) }));
  } finally {
    button.disabled = false;
  }
}

/** Whether the tab's token makes an operator: the server says so when asked for a check. */
async function probeRole(): Promise<'operator' | 'spectator'> {
  const form = $<HTMLFormElement>('token-form');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const given = $<HTMLInputElement>('token-input').value.trim();
    if (!given) return;
    rememberToken(given);
    location.reload();
  });
  if (!token) {
    notice('You are watching: the persona files are shown read-only. Operators open this page from the town\u2019s 🛠 tools, or enter the operator token.');
    return 'spectator';
  }
  try {
    await api.check('untitled', {});
    notice(null);
    return 'operator';
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      forgetToken();
      api.setToken(null);
      notice('The operator token was not accepted (the server may have restarted with a new one): the files are shown read-only. Enter the token to edit.');
      return 'spectator';
    }
    throw error;
  }
}

start().catch((error: unknown) => {
  notice(`The editor could not start: ${error instanceof Error ? error.message : String(error)}`);
});
