// The persona form: one control per field of the schema (schemaFields.ts), each knowing its field path
// as the loader names it (`routine[2].place`, `sprite.hair`, `relationships.omar`), so the server's
// problems land under the field they are about. Controls hold what was typed, as typed: the form
// never decides what is valid; it sends the fields to the server's loader and shows its answer.
import type { FieldProblem } from '@protocol/personas';
import type { FieldSpec, PlaceKind } from './schemaFields';
import { el } from '../ui/dom';

/** What the controls need from the page. */
export interface FormContext {
  /** Suggestions for a place field (from the place tree and the home, bedroom and workplace typed so far). */
  placeOptions(kind: PlaceKind): string[];
  /** The place field the map and the place tree now fill. */
  target(control: PlaceControl): void;
  /** People a relationship may name: the town's agents and the persona files, without this persona. */
  people(): Array<{ id: string; name: string }>;
  /** Something was typed or picked. */
  changed(): void;
}

export abstract class Control {
  readonly root: HTMLElement;
  protected readonly errorBox = el('div', { className: 'field-errors', role: 'alert' });
  /** Typed in since the form was opened: only then are its problems shown (until the form reveals all). */
  touched = false;

  protected constructor(
    readonly spec: FieldSpec,
    public path: string,
    protected readonly ctx: FormContext,
  ) {
    this.root = el('div', { className: `field field-${spec.kind}` });
    this.root.dataset.path = path;
  }

  abstract value(): unknown;
  abstract set(value: unknown): void;

  /** This control and the ones inside it. */
  controls(): Control[] {
    return [this];
  }

  /** Its own inputs, named by its path (a browser test finds a field by the name the loader gives it). */
  private readonly named: Array<HTMLInputElement | HTMLTextAreaElement> = [];

  /** The control's path changed (an item above it in a list was removed, or a list grew past one). */
  move(path: string): void {
    this.root.dataset.path = path;
    this.path = path;
    for (const input of this.named) {
      input.name = path;
      input.setAttribute('aria-label', path);
    }
  }

  /** Its problems under it: an error makes it `invalid` (red), warnings alone `warned` (amber). */
  showErrors(lines: ProblemLine[]): void {
    showLines(this.errorBox, this.root, lines);
  }

  protected label(...extra: Node[]): HTMLElement {
    const label = el('label', { className: 'field-label', textContent: this.spec.label }, ...extra);
    if (this.spec.help) label.title = this.spec.help;
    return label;
  }

  protected input<K extends 'input' | 'textarea'>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}): HTMLElementTagNameMap[K] {
    const input = el(tag, props as Partial<HTMLElementTagNameMap[K]>);
    input.setAttribute('aria-label', this.path);
    input.name = this.path;
    this.named.push(input);
    input.addEventListener('input', () => {
      this.touched = true;
      this.ctx.changed();
    });
    return input;
  }
}

class TextControl extends Control {
  private readonly field: HTMLInputElement | HTMLTextAreaElement;
  constructor(spec: Extract<FieldSpec, { kind: 'text' | 'clock' | 'integer' }>, path: string, ctx: FormContext, inline = false) {
    super(spec, path, ctx);
    const long = spec.kind === 'text' && spec.long;
    this.field = long ? this.input('textarea', { rows: 3 }) : this.input('input', { type: 'text' });
    if (spec.kind === 'clock') Object.assign(this.field, { placeholder: 'HH:MM', maxLength: 5, size: 6 });
    if (spec.kind === 'integer') Object.assign(this.field, { inputMode: 'numeric', size: 5 });
    if (spec.key === 'emoji') Object.assign(this.field, { size: 3 });
    this.root.append(inline ? this.field : this.label(), ...(inline ? [] : [this.field]), this.errorBox);
  }
  value(): unknown {
    const v = this.field.value;
    if (this.spec.kind === 'integer') return v.trim() === '' ? undefined : /^-?\d+$/.test(v.trim()) ? Number(v) : v;
    if (v === '' && !this.spec.required) return undefined;
    return v;
  }
  set(value: unknown): void {
    this.field.value = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

class ColourControl extends Control {
  private readonly text: HTMLInputElement;
  private readonly swatch: HTMLInputElement;
  constructor(spec: FieldSpec, path: string, ctx: FormContext) {
    super(spec, path, ctx);
    this.text = this.input('input', { type: 'text', maxLength: 7, size: 8, placeholder: '#rrggbb' });
    this.swatch = el('input', { type: 'color', tabIndex: -1 });
    this.swatch.setAttribute('aria-label', `${path} (colour picker)`);
    this.swatch.addEventListener('input', () => {
      this.text.value = this.swatch.value;
      this.touched = true;
      ctx.changed();
    });
    this.text.addEventListener('input', () => {
      if (/^#[0-9a-fA-F]{6}$/.test(this.text.value)) this.swatch.value = this.text.value.toLowerCase();
    });
    this.root.append(this.label(), this.swatch, this.text, this.errorBox);
  }
  value(): unknown {
    return this.text.value;
  }
  set(value: unknown): void {
    this.text.value = typeof value === 'string' ? value : '';
    if (/^#[0-9a-fA-F]{6}$/.test(this.text.value)) this.swatch.value = this.text.value.toLowerCase();
  }
}

/** A place: typed, suggested from the place tree, or picked on the map (📍 makes it the map's target). */
export class PlaceControl extends Control {
  readonly field: HTMLInputElement;
  private readonly list = el('datalist');
  private static lists = 0;
  constructor(
    readonly place: PlaceKind,
    spec: FieldSpec,
    path: string,
    ctx: FormContext,
    private readonly nullable = false,
    inline = false,
  ) {
    super(spec, path, ctx);
    this.list.id = `places-${PlaceControl.lists++}`;
    this.field = this.input('input', { type: 'text', placeholder: nullable ? 'none' : placeholderOf(place) });
    this.field.setAttribute('list', this.list.id);
    this.field.addEventListener('focus', () => this.target());
    const pick = el('button', { type: 'button', className: 'pick', textContent: '📍', title: 'pick it on the map or in the place tree' });
    pick.addEventListener('click', () => {
      this.target();
      this.field.focus();
    });
    this.root.append(...(inline ? [] : [this.label()]), this.field, pick, this.list, this.errorBox);
  }
  private target(): void {
    this.list.replaceChildren(...this.ctx.placeOptions(this.place).map((o) => el('option', { value: o })));
    this.ctx.target(this);
  }
  /** Sets what the map or the place tree picked. */
  pick(value: string): void {
    this.field.value = value;
    this.touched = true;
    this.ctx.changed();
  }
  setTargeted(on: boolean): void {
    this.root.classList.toggle('targeted', on);
  }
  value(): unknown {
    const v = this.field.value;
    if (v.trim() === '') return this.nullable ? null : this.spec.required ? '' : undefined;
    return v;
  }
  set(value: unknown): void {
    this.field.value = typeof value === 'string' ? value : '';
  }
}

function placeholderOf(kind: PlaceKind): string {
  switch (kind) {
    case 'sector':
      return 'a sector, e.g. Rivera House';
    case 'arenaOfHome':
      return 'bedroom';
    case 'objectOfBedroom':
      return 'bed';
    case 'arena':
      return 'Sector: arena';
    case 'placeRef':
      return 'home: kitchen · work · Hobbs Cafe: cafe';
  }
}

/** Rows of one kind, added and removed; the rows' paths are `key[i]`. */
abstract class ListControl<C extends Control> extends Control {
  protected rows: C[] = [];
  protected readonly body = el('div', { className: 'rows' });
  protected readonly addButton: HTMLButtonElement;
  protected constructor(spec: FieldSpec, path: string, ctx: FormContext, addText: string) {
    super(spec, path, ctx);
    this.addButton = el('button', { type: 'button', className: 'add', textContent: addText });
    this.addButton.addEventListener('click', () => {
      this.add(undefined).focus();
      ctx.changed();
    });
  }
  protected abstract makeRow(path: string): C;
  protected rowPath(i: number): string {
    return `${this.path}[${i}]`;
  }
  protected add(value: unknown): { focus(): void } {
    const row = this.makeRow(this.rowPath(this.rows.length));
    if (value !== undefined) row.set(value);
    this.rows.push(row);
    const remove = el('button', { type: 'button', className: 'remove', textContent: '×', title: 'remove' });
    remove.addEventListener('click', () => {
      this.rows.splice(this.rows.indexOf(row), 1);
      wrapper.remove();
      this.rows.forEach((r, i) => r.move(this.rowPath(i)));
      this.touched = true;
      this.ctx.changed();
    });
    const wrapper = el('div', { className: 'row' }, row.root, remove);
    this.body.append(wrapper);
    return { focus: () => (row.root.querySelector('input, textarea') as HTMLElement | null)?.focus() };
  }
  override controls(): Control[] {
    return [this, ...this.rows.flatMap((r) => r.controls())];
  }
  override move(path: string): void {
    super.move(path);
    this.rows.forEach((r, i) => r.move(this.rowPath(i)));
  }
  value(): unknown {
    return this.rows.map((r) => r.value());
  }
  set(value: unknown): void {
    this.rows = [];
    this.body.replaceChildren();
    for (const v of Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) this.add(v);
  }
}

class TextListControl extends ListControl<TextControl> {
  constructor(
    private readonly listSpec: Extract<FieldSpec, { kind: 'textList' }>,
    path: string,
    ctx: FormContext,
  ) {
    super(listSpec, path, ctx, `+ ${listSpec.key === 'innate' ? 'trait' : listSpec.key === 'tasks' ? 'task' : 'one more'}`);
    this.root.append(this.label(), this.body, this.addButton, this.errorBox);
  }
  protected makeRow(path: string): TextControl {
    return new TextControl({ kind: 'text', key: this.listSpec.key, label: '', help: '', required: true, long: this.listSpec.long }, path, this.ctx, true);
  }
  override value(): unknown {
    const v = super.value() as unknown[];
    return v.length === 0 && !this.spec.required ? undefined : v;
  }
}

class PlacesControl extends ListControl<PlaceControl> {
  constructor(
    private readonly placesSpec: Extract<FieldSpec, { kind: 'places' }>,
    path: string,
    ctx: FormContext,
  ) {
    super(placesSpec, path, ctx, '+ or another place');
    this.addButton.title = 'several places: the mind picks one each day';
    this.root.append(this.label(), this.body, this.addButton, this.errorBox);
  }
  protected makeRow(path: string): PlaceControl {
    return new PlaceControl(this.placesSpec.place, this.placesSpec, path, this.ctx, false, true);
  }
  /** One place is a string (its path is the field's); several are a list (`place[i]`). */
  protected override rowPath(i: number): string {
    return this.rows.length <= 1 ? this.path : `${this.path}[${i}]`;
  }
  protected override add(value: unknown): { focus(): void } {
    const handle = super.add(value);
    // Two or more: each row is an item of the list.
    if (this.rows.length > 1) this.rows.forEach((r, i) => r.move(`${this.path}[${i}]`));
    return handle;
  }
  override value(): unknown {
    const v = this.rows.map((r) => r.value());
    return v.length === 1 ? v[0] : v;
  }
  override set(value: unknown): void {
    super.set(value);
    if (this.rows.length === 0) this.add('');
  }
}

class GroupControl extends Control {
  private readonly children: Control[];
  constructor(spec: Extract<FieldSpec, { kind: 'group' }>, path: string, ctx: FormContext) {
    super(spec, path, ctx);
    this.children = spec.fields.map((f) => buildControl(f, `${path}.${f.key}`, ctx));
    this.root.append(this.label(), el('div', { className: 'group' }, ...this.children.map((c) => c.root)), this.errorBox);
  }
  override controls(): Control[] {
    return [this, ...this.children.flatMap((c) => c.controls())];
  }
  override move(path: string): void {
    const old = this.path;
    super.move(path);
    for (const c of this.children) c.move(c.path.replace(old, path));
  }
  value(): unknown {
    const out: Record<string, unknown> = {};
    for (const c of this.children) {
      const v = c.value();
      if (v !== undefined) out[c.spec.key] = v;
    }
    return out;
  }
  set(value: unknown): void {
    const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    for (const c of this.children) c.set(v[c.spec.key]);
  }
}

class ObjectListControl extends ListControl<GroupControl> {
  constructor(
    private readonly listSpec: Extract<FieldSpec, { kind: 'objectList' }>,
    path: string,
    ctx: FormContext,
  ) {
    super(listSpec, path, ctx, '+ block');
    this.root.append(this.label(), this.body, this.addButton, this.errorBox);
  }
  protected makeRow(path: string): GroupControl {
    return new GroupControl({ kind: 'group', key: this.listSpec.key, label: '', help: '', required: true, fields: this.listSpec.item }, path, this.ctx);
  }
}

class RelationshipsControl extends Control {
  private rows: Array<{ who: HTMLSelectElement; line: HTMLInputElement; root: HTMLElement; errors: HTMLElement }> = [];
  private readonly body = el('div', { className: 'rows' });
  constructor(spec: FieldSpec, path: string, ctx: FormContext) {
    super(spec, path, ctx);
    const add = el('button', { type: 'button', className: 'add', textContent: '+ someone they know' });
    add.addEventListener('click', () => {
      const taken = new Set(this.rows.map((r) => r.who.value));
      const free = ctx.people().find((p) => !taken.has(p.id));
      this.addRow(free?.id ?? '', '').line.focus();
      this.touched = true;
      ctx.changed();
    });
    this.root.append(this.label(), this.body, add, this.errorBox);
  }
  private addRow(id: string, text: string) {
    const who = el('select', { name: `${this.path}.who` });
    who.setAttribute('aria-label', 'who');
    const line = el('input', { type: 'text', placeholder: 'what they think of them, in a line', value: text });
    const errors = el('div', { className: 'field-errors', role: 'alert' });
    const remove = el('button', { type: 'button', className: 'remove', textContent: '×', title: 'remove' });
    const root = el('div', { className: 'row relationship' }, who, line, remove, errors);
    const row = { who, line, root, errors };
    this.fillPeople(who, id);
    const name = () => {
      line.name = `${this.path}.${who.value}`;
      line.setAttribute('aria-label', `${this.path}.${who.value}`);
    };
    name();
    for (const [target, event] of [
      [who, 'change'],
      [line, 'input'],
    ] as const)
      target.addEventListener(event, () => {
        name();
        this.touched = true;
        this.ctx.changed();
      });
    remove.addEventListener('click', () => {
      this.rows.splice(this.rows.indexOf(row), 1);
      root.remove();
      this.touched = true;
      this.ctx.changed();
    });
    this.rows.push(row);
    this.body.append(root);
    return row;
  }
  private fillPeople(select: HTMLSelectElement, chosen: string): void {
    const people = this.ctx.people();
    if (chosen && !people.some((p) => p.id === chosen)) people.push({ id: chosen, name: `${chosen} (not in town)` });
    select.replaceChildren(...people.map((p) => el('option', { value: p.id, textContent: `${p.name} (${p.id})` })));
    select.value = chosen;
  }
  /** Rereads who may be named (the persona's own id changed, or the town's agents). */
  refreshPeople(): void {
    for (const r of this.rows) this.fillPeople(r.who, r.who.value);
  }
  /** Problems of one relationship go under its row. */
  showRowErrors(byId: Map<string, ProblemLine[]>): void {
    for (const r of this.rows) showLines(r.errors, r.root, byId.get(r.who.value) ?? []);
  }
  value(): unknown {
    if (this.rows.length === 0) return undefined;
    return Object.fromEntries(this.rows.filter((r) => r.who.value).map((r) => [r.who.value, r.line.value]));
  }
  set(value: unknown): void {
    this.rows = [];
    this.body.replaceChildren();
    if (value && typeof value === 'object') for (const [id, text] of Object.entries(value)) this.addRow(id, typeof text === 'string' ? text : '');
  }
}

export function buildControl(spec: FieldSpec, path: string, ctx: FormContext): Control {
  switch (spec.kind) {
    case 'text':
    case 'integer':
    case 'clock':
      return new TextControl(spec, path, ctx);
    case 'colour':
      return new ColourControl(spec, path, ctx);
    case 'place':
      return new PlaceControl(spec.place, spec, path, ctx, spec.nullable);
    case 'places': {
      const c = new PlacesControl(spec, path, ctx);
      c.set('');
      return c;
    }
    case 'textList':
      return new TextListControl(spec, path, ctx);
    case 'objectList':
      return new ObjectListControl(spec, path, ctx);
    case 'group':
      return new GroupControl(spec, path, ctx);
    case 'relationships':
      return new RelationshipsControl(spec, path, ctx);
  }
}

/** The whole form: the file name (id) and one control per field of the schema. */
export class PersonaForm {
  readonly root = el('fieldset', { className: 'persona-form' });
  readonly idField: HTMLInputElement;
  private readonly idErrors = el('div', { className: 'field-errors', role: 'alert' });
  private readonly idNote = el('p', { className: 'muted id-note' });
  /** Beside the id: the page puts "rename…" here for a file being edited. */
  readonly idActions = el('span', { className: 'id-actions' });
  private readonly controlsByKey: Control[];
  readonly summary = el('div', { className: 'form-summary', role: 'status' });
  /** Show the problems of fields not typed in yet (after a save, or for a file opened to edit). */
  revealAll = false;
  idTouched = false;

  constructor(fields: readonly FieldSpec[], ctx: FormContext) {
    this.idField = el('input', { type: 'text', name: 'id', placeholder: 'e.g. juniper', size: 16 });
    this.idField.setAttribute('aria-label', 'id');
    this.idField.addEventListener('input', () => {
      this.idTouched = true;
      ctx.changed();
    });
    const idRow = el(
      'div',
      { className: 'field field-id' },
      el('label', {
        className: 'field-label',
        textContent: 'Id (file name)',
        title: 'The persona id: lowercase letters, digits and -. Saved as <id>.yaml. Not the name people see: that is Name.',
      }),
      this.idField,
      el('span', { className: 'muted', textContent: '.yaml' }),
      this.idActions,
      this.idNote,
      this.idErrors,
    );
    idRow.dataset.path = 'id';
    this.controlsByKey = fields.map((f) => buildControl(f, f.key, ctx));
    this.root.append(this.summary, idRow, ...this.controlsByKey.map((c) => c.root));
  }

  /** A word about the file name (e.g. that a file of that name exists). */
  noteOnId(text: string): void {
    this.idNote.textContent = text;
  }

  get id(): string {
    return this.idField.value.trim();
  }

  /** The fields as the server gets them. */
  value(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const c of this.controlsByKey) {
      const v = c.value();
      if (v !== undefined) out[c.spec.key] = v;
    }
    return out;
  }

  set(id: string, fields: Record<string, unknown>): void {
    this.idField.value = id;
    for (const c of this.controlsByKey) c.set(fields[c.spec.key]);
    for (const c of this.all()) c.touched = false;
    this.idTouched = false;
  }

  /** A field's current value by key (home, bedroom, workplace…), for the place suggestions. */
  field(key: string): unknown {
    return this.controlsByKey.find((c) => c.spec.key === key)?.value();
  }

  all(): Control[] {
    return this.controlsByKey.flatMap((c) => c.controls());
  }

  relationships(): RelationshipsControl | undefined {
    return this.controlsByKey.find((c): c is RelationshipsControl => c instanceof RelationshipsControl);
  }

  setReadOnly(readOnly: boolean): void {
    this.root.disabled = readOnly;
  }

  /**
   * Shows the loader's problems under their fields: each goes to the control with the longest path
   * that contains its field; the rest (a YAML line, a field no control has) to the summary.
   */
  showProblems(errors: readonly FieldProblem[], warnings: readonly FieldProblem[]): { shown: number; hidden: number } {
    const controls = this.all();
    const byControl = new Map<Control, ProblemLine[]>();
    const byRelationship = new Map<string, ProblemLine[]>();
    const loose: string[] = [];
    const idLines: string[] = [];
    // Warnings about the id (another persona set has it) show even for an id made from the name.
    const idWarnings: string[] = [];
    let hidden = 0;
    const place = (p: FieldProblem, warning: boolean) => {
      const text = `${warning ? '⚠ ' : ''}${p.message}`;
      if (p.field === 'id') return void (warning ? idWarnings : idLines).push(text);
      const line = (t: string): ProblemLine => ({ text: t, warning });
      if (p.field.startsWith('relationships.')) {
        const id = p.field.slice('relationships.'.length);
        byRelationship.set(id, [...(byRelationship.get(id) ?? []), line(text)]);
        return;
      }
      // The deepest control that holds the field; of a list and its one row (both at `routine[2].place`), the row,
      // whose input the user typed in. Touched when any control at that path was.
      const holders = controls.filter((c) => within(p.field, c.path));
      const deepest = Math.max(-1, ...holders.map((c) => c.path.length));
      const same = holders.filter((c) => c.path.length === deepest);
      const owner = same[same.length - 1];
      if (!owner) return void loose.push(`${p.field}: ${text}`);
      if (!warning && !this.revealAll && !same.some((c) => c.touched)) return void hidden++;
      const rest = p.field.slice(owner.path.length);
      byControl.set(owner, [...(byControl.get(owner) ?? []), line(rest ? `${rest.replace(/^\./, '')}: ${text}` : text)]);
    };
    for (const e of errors) place(e, false);
    for (const w of warnings) place(w, true);
    for (const c of controls) c.showErrors(byControl.get(c) ?? []);
    this.relationships()?.showRowErrors(byRelationship);
    const showId = this.revealAll || this.idTouched;
    const idShown = [...(showId ? idLines : []).map((text) => ({ text, warning: false })), ...idWarnings.map((text) => ({ text, warning: true }))];
    showLines(this.idErrors, this.idErrors.parentElement!, idShown);
    if (!showId) hidden += idLines.length;
    const shown = errors.length - hidden;
    const lines: string[] = [];
    if (errors.length === 0)
      lines.push(warnings.length ? `Loads, with ${warnings.length} warning${warnings.length === 1 ? '' : 's'}.` : 'No problems: this persona loads.');
    else lines.push(`${errors.length} problem${errors.length === 1 ? '' : 's'}${hidden ? ` (${hidden} in fields not filled in yet)` : ''}.`);
    this.summary.replaceChildren(...lines.map((l) => el('p', { textContent: l })), ...loose.map((l) => el('p', { className: 'loose', textContent: l })));
    this.summary.classList.toggle('ok', errors.length === 0);
    return { shown, hidden };
  }
}

/** A line said under a field: an error, or a warning (the persona loads with it). */
export interface ProblemLine {
  text: string;
  warning: boolean;
}

/** Writes problems into `box`, and marks `holder` red (`invalid`) for an error, amber (`warned`) for warnings alone. */
function showLines(box: HTMLElement, holder: HTMLElement, lines: readonly ProblemLine[]): void {
  box.replaceChildren(...lines.map((l) => el('p', { textContent: l.text, className: l.warning ? 'warning' : 'error' })));
  const error = lines.some((l) => !l.warning);
  holder.classList.toggle('invalid', error);
  holder.classList.toggle('warned', !error && lines.length > 0);
}

/** Whether a problem at `field` belongs to the control at `path`: the same field, or one inside it. */
function within(field: string, path: string): boolean {
  if (!field.startsWith(path)) return false;
  const next = field[path.length];
  return next === undefined || next === '.' || next === '[';
}
