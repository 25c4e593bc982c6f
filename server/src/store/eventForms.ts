// How events are kept in the world file. Most as written: the JSON of their payload. Two kinds are kept
// packed, because they were most of what the log grows by without telling replay anything new:
// - `memory.created` repeated its memory's row (kind, text, importance, evidence: ~150 bytes an event,
//   ~190 events an agent-day); it is kept as `{"id","by"}` and read back from the `memories` row;
// - `plan.made` repeated its key names for every action of the day; its actions and hour blocks are kept
//   as arrays (`[startMinute, durationMinutes, description, emoji, address]`, `[startMinute,
//   durationMinutes, activity]`).
// A payload is packed only when unpacking gives back the very JSON it was written as (same keys, same
// order, same values): anything else (a memory row that differs, a field the packer does not know) is kept
// as written. So a reader always gets what the writer logged, and files written before packing, which hold
// only full payloads, read the same way (the reader unpacks only what is packed).
// That is decided without reading the packed form back (the log packs in the room's tick: a town of 10,000
// logs ~25 plans of ~5 KB a tick, and packing, unpacking and serialising each again was 27 % of its tick):
// a plan's rows give back its objects exactly when each object has the packer's keys in its order and no
// value JSON drops from an object but writes as null in an array; a memory's event is compared field by
// field with its row, read once. `tests/unit/eventForms.test.ts` checks that over every event kind, against
// the read-back reference.

/** A memory row as the `memories` table holds it, for `memory.created`. */
export interface MemoryRowForm {
  agentId: string;
  kind: string;
  description: string;
  importance: number;
  /** JSON text of the evidence ids. */
  evidence: string;
}

export type MemoryRowLookup = (id: number) => MemoryRowForm | undefined;

const ACTION_KEYS = ['startMinute', 'durationMinutes', 'description', 'emoji', 'address'] as const;
const HOUR_BLOCK_KEYS = ['startMinute', 'durationMinutes', 'activity'] as const;

function toRows(list: unknown, keys: readonly string[]): unknown[][] | null {
  if (!Array.isArray(list) || list.some((item) => item === null || typeof item !== 'object')) return null;
  return list.map((item) => keys.map((k) => (item as Record<string, unknown>)[k]));
}

function fromRows(list: unknown[][], keys: readonly string[]): Array<Record<string, unknown>> {
  return list.map((row) => Object.fromEntries(keys.map((k, i) => [k, row[i]])));
}

/** The packed payload of an event of this kind, or null when its kind is kept as written. */
function packed(kind: string, data: Record<string, unknown>): Record<string, unknown> | null {
  if (kind === 'memory.created') return { id: data.id, by: data.by };
  if (kind === 'plan.made') {
    const actions = toRows(data.actions, ACTION_KEYS);
    if (!actions) return null;
    const out: Record<string, unknown> = { ...data, actions };
    if ('hourBlocks' in data) {
      const blocks = toRows(data.hourBlocks, HOUR_BLOCK_KEYS);
      if (!blocks) return null;
      out.hourBlocks = blocks;
    }
    return out;
  }
  return null;
}

/**
 * The payload as a reader gets it back from what the file holds: a packed payload unpacked, anything else
 * as it is. Throws when a packed `memory.created` refers to a memory the file does not hold.
 */
export function unpackEvent(kind: string, data: unknown, memoryRow: MemoryRowLookup, seq?: number): unknown {
  if (data === null || typeof data !== 'object') return data;
  const d = data as Record<string, unknown>;
  if (kind === 'memory.created' && !('description' in d) && typeof d.id === 'number') {
    const row = memoryRow(d.id);
    if (!row) throw new Error(`event ${seq ?? '?'} (memory.created) refers to memory ${d.id}, which is not in the world file`);
    return { id: d.id, kind: row.kind, description: row.description, importance: row.importance, evidence: JSON.parse(row.evidence) as unknown, by: d.by };
  }
  if (kind === 'plan.made' && Array.isArray(d.actions) && Array.isArray(d.actions[0])) {
    const out: Record<string, unknown> = { ...d, actions: fromRows(d.actions as unknown[][], ACTION_KEYS) };
    if (Array.isArray(d.hourBlocks)) out.hourBlocks = fromRows(d.hourBlocks as unknown[][], HOUR_BLOCK_KEYS);
    return out;
  }
  return data;
}

/** Whether JSON writes a value at all in an object (undefined, functions and symbols it drops there, and writes as null in an array). */
const written = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/** An object whose toJSON may write it otherwise in an object than in an array: not packed (no payload holds one). */
const hasToJson = (v: unknown): boolean => v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function';

/** Whether JSON writes the value as a plain object: no array, no toJSON of its own, no class. */
function isPlainRecord(item: unknown): item is Record<string, unknown> {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || hasToJson(item)) return false;
  const proto = Object.getPrototypeOf(item) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The keys JSON writes of a plain object, in order, or null for anything else. */
function writtenKeys(item: unknown): string[] | null {
  if (!isPlainRecord(item)) return null;
  return Object.keys(item).filter((k) => written(item[k]));
}

/**
 * Whether `fromRows(toRows([item]))` writes as `item` does: the packer's keys, all written, in order, and no value whose
 * toJSON could differ. The keys as writtenKeys reads them, walked in place: a plan's 60-odd actions a plan made two
 * arrays each, a twentieth of what the town of 10,000's served hour allocated.
 */
function rowExact(item: unknown, keys: readonly string[]): boolean {
  if (!isPlainRecord(item)) return false;
  let i = 0;
  for (const k in item) {
    if (!Object.hasOwn(item, k) || !written(item[k])) continue;
    if (k !== keys[i] || hasToJson(item[k])) return false;
    i++;
  }
  return i === keys.length;
}

/** Rows of a list whose every item is `rowExact` (so `fromRows` gives the list back as written), or null. */
function exactRows(list: unknown, keys: readonly string[]): unknown[][] | null {
  if (!Array.isArray(list)) return null;
  for (const item of list) if (!rowExact(item, keys)) return null;
  return toRows(list, keys);
}

const MEMORY_EVENT_KEYS = ['id', 'kind', 'description', 'importance', 'evidence', 'by'] as const;

/** The packed text of a plan, or null where the rows would not give back what was written. */
function packPlan(data: Record<string, unknown>): string | null {
  // An empty list of actions is not shorter packed, and reads back unpacked: kept as written.
  if (!Array.isArray(data.actions) || data.actions.length === 0) return null;
  const actions = exactRows(data.actions, ACTION_KEYS);
  if (!actions) return null;
  const out: Record<string, unknown> = { ...data, actions };
  if ('hourBlocks' in data) {
    const blocks = exactRows(data.hourBlocks, HOUR_BLOCK_KEYS);
    if (!blocks) return null;
    out.hourBlocks = blocks;
  }
  return JSON.stringify(out);
}

/** The packed text of a memory's event, or null where its row (read once) would not give back what was written. */
function packMemory(data: Record<string, unknown>, agentId: string | null, memoryRow: MemoryRowLookup): string | null {
  // The keys as written: all six in order, or the first five when `by` is not written (it reads back as undefined).
  const own = writtenKeys(data);
  if (!own || own.length < MEMORY_EVENT_KEYS.length - 1 || own.some((k, i) => k !== MEMORY_EVENT_KEYS[i]) || typeof data.id !== 'number') return null;
  if (hasToJson(data.by)) return null;
  const row = memoryRow(data.id);
  if (!row || row.agentId !== agentId || row.kind !== data.kind || row.description !== data.description || row.importance !== data.importance) return null;
  const evidence = JSON.stringify(data.evidence);
  if (row.evidence !== evidence && JSON.stringify(JSON.parse(row.evidence)) !== evidence) return null;
  return JSON.stringify({ id: data.id, by: data.by });
}

/**
 * The text an event's payload is kept as: packed when that reads back as exactly what was written
 * (the row of a `memory.created` must already be in the file, as `MemoryStream.add` writes it first).
 */
export function packEvent(kind: string, agentId: string | null, data: unknown, memoryRow: MemoryRowLookup): string {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return JSON.stringify(data ?? null);
  const d = data as Record<string, unknown>;
  const packedText = kind === 'plan.made' ? packPlan(d) : kind === 'memory.created' ? packMemory(d, agentId, memoryRow) : null;
  return packedText ?? JSON.stringify(data);
}

/**
 * The reference packEvent is checked against (tests only): packed when unpacking the packed form, read back
 * from its text, gives the very JSON that was written. It reads the memory row twice and serialises a plan
 * four times, which is why the log does not use it.
 */
export function packEventByReadBack(kind: string, agentId: string | null, data: unknown, memoryRow: MemoryRowLookup): string {
  const written = JSON.stringify(data ?? null);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return written;
  const candidate = packed(kind, data as Record<string, unknown>);
  if (!candidate) return written;
  if (kind === 'memory.created') {
    const row = typeof candidate.id === 'number' ? memoryRow(candidate.id) : undefined;
    if (!row || row.agentId !== agentId) return written;
  }
  const text = JSON.stringify(candidate);
  return JSON.stringify(unpackEvent(kind, JSON.parse(text), memoryRow)) === written && text.length < written.length ? text : written;
}
