// Persona files as the persona editor writes them: the form's fields as YAML, in the schema's order,
// laid out like the shipped files (the schema line on top, quoted times, long texts folded). Editing a
// file keeps its comments and the layout of every field the edit leaves alone. What is written is then
// checked by the loader itself (checkPersonaText), never by a second set of rules.
import YAML, { isMap, isScalar, isSeq, Scalar, type Document, type Node } from 'yaml';
import { PersonaFileSchema } from './persona';

/** The first line of a persona file: editors that read it autocomplete against the published schema. */
export const SCHEMA_COMMENT = ' yaml-language-server: $schema=./persona.schema.json';

const FIELD_ORDER = Object.keys(PersonaFileSchema.shape);
const CLOCKS = new Set(['wakeAt', 'sleepAt', 'at']);
const LONG_TEXTS = new Set(['learned', 'currently', 'lifestyle']);
const FLOW = new Set(['innate', 'sprite', 'tasks', 'place']);

/**
 * The persona file's text for these fields. With `previous` (the file's text now), only the fields that
 * change are rewritten, in place: every other line, comments included, stays byte for byte.
 */
export function renderPersonaYaml(fields: Readonly<Record<string, unknown>>, previous?: string): string {
  const ordered = orderFields(fields);
  if (previous !== undefined) {
    const spliced = spliceFields(previous, ordered);
    // A layout the splice cannot follow (anchors, odd keys) is written afresh rather than wrongly.
    if (spliced !== null && readsAs(spliced, ordered)) return spliced;
  }
  const doc = new YAML.Document({});
  for (const [key, value] of Object.entries(ordered)) doc.set(key, styled(doc, key, value));
  (doc.contents as Node).commentBefore = SCHEMA_COMMENT;
  return doc.toString({ lineWidth: LINE_WIDTH });
}

const LINE_WIDTH = 100;

/** Rewrites the changed top-level fields of a file's text in place, drops removed ones, appends new ones; null when it cannot. */
function spliceFields(previous: string, ordered: Record<string, unknown>): string | null {
  const doc = YAML.parseDocument(previous, { uniqueKeys: false });
  if (doc.errors.length || !isMap(doc.contents)) return null;
  const edits: Array<{ from: number; to: number; text: string }> = [];
  const seen = new Set<string>();
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || !pair.key.range) return null;
    const key = String(pair.key.value);
    seen.add(key);
    const value = pair.value as Node | null;
    const from = pair.key.range[0];
    const to = value?.range ? value.range[1] : pair.key.range[1];
    if (!(key in ordered)) {
      // The whole entry goes, to the end of its last line.
      const end = previous.indexOf('\n', value?.range ? value.range[1] - 1 : to);
      edits.push({ from: lineStart(previous, from), to: end < 0 ? previous.length : end + 1, text: '' });
    } else if (!sameValue(value, ordered[key])) {
      // A block value's range runs through its last newline: keep one there.
      edits.push({ from, to, text: `${renderField(key, ordered[key])}${previous[to - 1] === '\n' ? '\n' : ''}` });
    }
  }
  let text = previous;
  for (const e of edits.sort((x, y) => y.from - x.from)) text = text.slice(0, e.from) + e.text + text.slice(e.to);
  const added = Object.keys(ordered).filter((k) => !seen.has(k));
  if (added.length) text = `${text.replace(/\n*$/, '\n')}${added.map((k) => `${renderField(k, ordered[k])}\n`).join('')}`;
  if (!/^\s*#.*\$schema=/m.test(text)) text = `#${SCHEMA_COMMENT}\n${text}`;
  return text;
}

/** One top-level field as YAML ("key: value" or "key:\n  - …"), without a final newline. */
function renderField(key: string, value: unknown): string {
  const doc = new YAML.Document({});
  doc.set(key, styled(doc, key, value));
  return doc.toString({ lineWidth: LINE_WIDTH }).replace(/\n$/, '');
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

function readsAs(text: string, fields: Record<string, unknown>): boolean {
  try {
    return JSON.stringify(sortKeys(YAML.parse(text))) === JSON.stringify(sortKeys(fields));
  } catch {
    return false;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}

/** Known fields in the schema's order, then anything else (which the loader will call an unknown field). */
function orderFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (fields[key] !== undefined) out[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!(key in out) && value !== undefined) out[key] = value;
  return out;
}

function sameValue(node: unknown, value: unknown): boolean {
  const current = node && typeof node === 'object' && 'toJSON' in node ? (node as Node).toJSON() : node;
  return JSON.stringify(current) === JSON.stringify(value);
}

/** A node for one field, styled like the shipped persona files. */
function styled(doc: Document, key: string, value: unknown): Node {
  const node = doc.createNode(value) as Node;
  styleNode(node, key);
  return node;
}

function styleNode(node: Node, key: string): void {
  if (isScalar(node)) {
    if (typeof node.value !== 'string') return;
    if (CLOCKS.has(key) || key === 'emoji') node.type = Scalar.QUOTE_DOUBLE;
    else if (LONG_TEXTS.has(key) && node.value.length > 60 && !node.value.includes('\n')) node.type = Scalar.BLOCK_FOLDED;
    return;
  }
  if (isSeq(node)) {
    // Short lists on one line, as in the shipped files; a long one a line per item.
    if (FLOW.has(key) && JSON.stringify(node.toJSON()).length < 80) node.flow = true;
    for (const item of node.items) styleNode(item as Node, key === 'routine' ? '' : key);
    return;
  }
  if (isMap(node)) {
    if (FLOW.has(key)) node.flow = true;
    for (const pair of node.items) if (isScalar(pair.key)) styleNode(pair.value as Node, String(pair.key.value));
  }
}

/**
 * What a persona file holds, for the editor to fill its form: the YAML as plain data, whatever its
 * errors against the schema; null when it is not YAML or not a mapping.
 */
export function readPersonaFields(text: string): Record<string, unknown> | null {
  const doc = YAML.parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) return null;
  const raw: unknown = doc.toJS();
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}
