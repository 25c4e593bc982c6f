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

/** The persona file's text for these fields; `previous` (the file's text now) keeps its comments and untouched fields. */
export function renderPersonaYaml(fields: Readonly<Record<string, unknown>>, previous?: string): string {
  const ordered = orderFields(fields);
  const old = previous === undefined ? null : YAML.parseDocument(previous, { uniqueKeys: false });
  if (old && old.errors.length === 0 && isMap(old.contents)) {
    for (const key of [...old.contents.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key))]) if (!(key in ordered)) old.delete(key);
    for (const [key, value] of Object.entries(ordered)) {
      if (sameValue(old.get(key, true), value)) continue;
      old.set(key, styled(old, key, value));
    }
    if (!/^\s*#.*\$schema=/m.test(previous!)) old.commentBefore = old.commentBefore ? `${SCHEMA_COMMENT}\n${old.commentBefore}` : SCHEMA_COMMENT;
    return old.toString({ lineWidth: 100 });
  }
  const doc = new YAML.Document({});
  for (const [key, value] of Object.entries(ordered)) doc.set(key, styled(doc, key, value));
  (doc.contents as Node).commentBefore = SCHEMA_COMMENT;
  return doc.toString({ lineWidth: 100 });
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
