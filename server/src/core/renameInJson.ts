// An agent's id everywhere in plain data: every string equal to `from` and every key equal to `from`
// becomes `to`. Ids key the sim's state, the event log's data and the plans as whole strings only (never
// inside a text: texts carry names), so this is how a rename reaches all of them.

/** A copy of `value` with the id renamed; `value` is left as it is. Returns `value` itself when nothing held the id. */
export function renameInJson<T>(value: T, from: string, to: string): T {
  return walk(value, from, to).value as T;
}

function walk(value: unknown, from: string, to: string): { value: unknown; changed: boolean } {
  if (typeof value === 'string') return value === from ? { value: to, changed: true } : { value, changed: false };
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = walk(v, from, to);
      changed ||= r.changed;
      return r.value;
    });
    return changed ? { value: out, changed } : { value, changed };
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = walk(v, from, to);
      changed ||= r.changed || k === from;
      out[k === from ? to : k] = r.value;
    }
    return changed ? { value: out, changed } : { value, changed };
  }
  return { value, changed: false };
}

/** Whether plain data holds the id as a whole string or a key. */
export function holdsId(value: unknown, id: string): boolean {
  return walk(value, id, id).changed;
}
