// Branded ids: a string that is known to be a persona id cannot be mixed up with any other string.

declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A persona's id: the stem of its YAML file, e.g. `isabella` for `personas/isabella.yaml`. */
export type AgentId = Brand<string, 'AgentId'>;
export const asAgentId = (id: string): AgentId => id as AgentId;
