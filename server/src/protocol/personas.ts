// The persona editor's HTTP API (server/src/api/personas.ts), as the editor page reads it. Reads are
// open to anyone; every write (and every check or preview, which spend the server's time or money)
// needs the operator token.
import type { DayPlan } from './plan';

/** A problem of a persona at a field: `routine[2].place`, `relationships.omar`, `sprite.hair`, or `id` (the file name). */
export interface FieldProblem {
  field: string;
  /** The problem alone, as the loader words it. */
  message: string;
}

/** One file of PERSONAS_DIR. */
export interface PersonaFileEntry {
  id: string;
  /** The file name, e.g. "isabella.yaml". */
  file: string;
  /** The persona's name, or null when the file does not say one. */
  name: string | null;
  /** Whether an agent of this id lives in the town now. */
  inTown: boolean;
  /** What the loader would refuse in it now (empty: it loads). */
  problems: string[];
}

/** GET /api/persona-files. */
export interface PersonaFileList {
  files: PersonaFileEntry[];
  /** Agents in town without a file in the folder (added from a file since deleted). */
  agentsWithoutFile: Array<{ id: string; name: string }>;
  /** Spawn points of the map: where an added agent may appear. */
  spawns: string[];
  mind: { kind: 'offline' | 'llm'; label: string };
}

/** GET /api/persona-files/<id>. */
export interface PersonaFileView {
  id: string;
  file: string;
  /** The file's text. */
  text: string;
  /** Its fields as plain data, for the form (whatever the schema says of them); null when it is not YAML. */
  fields: Record<string, unknown> | null;
  inTown: boolean;
  errors: FieldProblem[];
}

/** The body of check, preview and save: the form's fields, written as they would be saved. */
export interface PersonaFieldsRequest {
  fields: Record<string, unknown>;
}

export interface PreviewCost {
  calls: number;
  /** Calls answered from the response cache, at no cost. */
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  usd: number;
  /** Levels of the plan where the LLM's answer was unusable and the offline plan stands in. */
  fallbacks: number;
}

/** The day plan the persona would make, and with which mind. */
export interface PlanPreview {
  mind: 'offline' | 'llm';
  /** The mind's label, e.g. "offline" or "llm: gpt-4o-mini @ api.openai.com". */
  label: string;
  /** The game day planned and its date, e.g. "Friday 13 February 2026". */
  day: number;
  date: string;
  plan: DayPlan;
  /** What the LLM's plan cost; null for the offline mind (it costs nothing). */
  cost: PreviewCost | null;
}

/** POST /api/persona-files/<id>/check (operator). */
export interface PersonaCheckReply {
  /** Every problem the loader finds in the file this would write, by field. Empty: it loads. */
  errors: FieldProblem[];
  /** What does not stop it, e.g. a relationship with someone not in town. */
  warnings: FieldProblem[];
  /** The YAML that saving would write. */
  yaml: string;
  /** Whether a file of this id exists (saving asks before replacing it). */
  exists: boolean;
  inTown: boolean;
  /** The offline mind's plan, when there are no errors. */
  preview: PlanPreview | null;
}

/** PUT /api/persona-files/<id> (operator). */
export interface PersonaSaveRequest extends PersonaFieldsRequest {
  /** Replace an existing file (without it, an existing file answers 409 and is left alone). */
  overwrite?: boolean;
  /** Bring the persona into town once saved (when it is not there). */
  addToTown?: boolean;
  /** With addToTown: the spawn point where it appears (default: a spawn named after it, else its bed). */
  spawn?: string;
}

export interface PersonaSaveReply {
  id: string;
  file: string;
  created: boolean;
  /** Whether it was added to the town by this save. */
  added: boolean;
  /** For an agent in town: its persona changed, from its next plan. */
  updatedInTown: boolean;
  warnings: FieldProblem[];
}

/** The answer to a refused save: what is wrong, and why. */
export interface PersonaSaveRefusal {
  error: string;
  /** A file of this id exists: save again with `overwrite` to replace it. */
  exists?: boolean;
  /** The persona folder cannot be written. */
  readOnly?: boolean;
  /** The persona does not load as written. */
  errors?: FieldProblem[];
}

/** `POST /api/persona-files/<id>/rename`: a new id for the persona (its file, and its history in this world). */
export interface PersonaRenameRequest {
  to: string;
}

export interface PersonaRenameReply {
  from: string;
  to: string;
  /** The file's new name. */
  file: string;
  /** Whether the agent lives in the town: it keeps its place, plan, memories and relationships under the new id. */
  inTown: boolean;
  /** What the world file held of the old id and now holds under the new one; null when it held nothing. */
  rewritten: { memories: number; events: number; snapshots: number; plans: number; conversations: number; relationships: number } | null;
  /** Other persona files whose relationships named the old id. */
  relationshipsIn: string[];
}
