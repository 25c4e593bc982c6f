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
  if (!Array.isArray(list)) return null;
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

/**
 * The text an event's payload is kept as: packed when that reads back as exactly what was written
 * (the row of a `memory.created` must already be in the file, as `MemoryStream.add` writes it first).
 */
export function packEvent(kind: string, agentId: string | null, data: unknown, memoryRow: MemoryRowLookup): string {
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
