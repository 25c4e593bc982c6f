// Branded ids: a string that is known to be a persona id cannot be mixed up with any other string.

declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A persona's id: the stem of its YAML file, e.g. `isabella` for `personas/isabella.yaml`. */
export type AgentId = Brand<string, 'AgentId'>;
export const asAgentId = (id: string): AgentId => id as AgentId;

/** The longest persona id (a file name stem), in characters. */
export const PERSONA_ID_MAX_CHARS = 64;

/**
 * Names a persona id may not take: every property a plain object inherits (`constructor`, …) and a
 * function's `prototype`. Ids key maps and records everywhere, on the server, in the schema state and
 * in the page; none of them may read an inherited property for an id.
 */
export const RESERVED_PERSONA_IDS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype', '__proto__']);

/** What is wrong with a persona id, or null: lowercase letters, digits and '-', starting with a letter, not reserved. */
export function personaIdProblem(id: string): string | null {
  if (id.length > PERSONA_ID_MAX_CHARS) return `a persona id has at most ${PERSONA_ID_MAX_CHARS} characters (this one has ${id.length})`;
  if (!/^[a-z][a-z0-9-]*$/.test(id)) return "use lowercase letters, digits and '-', starting with a letter";
  if (RESERVED_PERSONA_IDS.has(id)) return `'${id}' is a reserved name (a property every object has); choose another`;
  return null;
}
