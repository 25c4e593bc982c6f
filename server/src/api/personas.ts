// The persona editor's HTTP API, one town's (picked by `?world=` like every /api view). Anyone may
// read the persona files; checking, previewing, saving and deleting them, and adding or
// removing agents, need the operator token (Authorization: Bearer <token>).
//
// Every check is the loader's own (personaChecks.ts): the form's fields are written as the YAML that
// saving would write, and that text goes through checkPersonaText against the town's map, exactly as at
// start-up. So the editor and the next start never disagree, and a file that would stop the town is
// never written. This file holds the routes and what each does with the folder and the town.
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Town } from '../town/Town';
import type { AgentId } from '../protocol/ids';
import type {
  FieldProblem,
  PersonaCheckReply,
  PersonaFileEntry,
  PersonaFileList,
  PersonaFileView,
  PersonaRenameReply,
  PersonaSaveRefusal,
  PersonaSaveReply,
} from '../protocol/personas';
import { personaIdProblem } from '../protocol/ids';
import { checkPersonaText, isPersonaId } from '../world/persona';
import { readPersonaFields } from '../world/personaText';
import { PersonaFolder, PersonaFolderError } from '../town/personaFiles';
import { previewDayPlan, PreviewUnavailable } from '../town/preview';
import { RenameRefusal } from '../town/commands';
import { HttpError } from './errors';
import { requireOperator } from './towns';
import { PersonaChecks, problem } from './personaChecks';

/** Who the event log names for what the editor does. */
const BY = 'persona editor';

const Fields = z.record(z.string(), z.unknown());
const CheckBody = z.object({ fields: Fields }).strict();
const PreviewBody = z.object({ fields: Fields, mind: z.enum(['offline', 'llm']) }).strict();
const SaveBody = z
  .object({ fields: Fields, overwrite: z.boolean().optional(), addToTown: z.boolean().optional(), spawn: z.string().min(1).max(200).optional() })
  .strict();
const RenameBody = z.object({ to: z.string().max(200) }).strict();
const AddBody = z.object({ personaId: z.string().min(1).max(100), spawn: z.string().min(1).max(200).optional() }).strict();

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw new HttpError(400, parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
}

function idParam(req: Request): string {
  const id = String(req.params.id);
  const problem = personaIdProblem(id);
  if (problem) throw new HttpError(400, `'${id.slice(0, 80)}${id.length > 80 ? '…' : ''}' is not a persona id: ${problem}`);
  return id;
}

/** What every route works with: the town, its persona folder and the checks. */
interface Editor {
  town: Town;
  folder: PersonaFolder;
  checks: PersonaChecks;
  inTown(id: string): boolean;
}

export function mountPersonaApi(api: express.Router, town: Town, operatorToken: string): void {
  const folder = new PersonaFolder(town.config.personasDir);
  const editor: Editor = { town, folder, checks: new PersonaChecks(town, folder), inTown: (id) => town.sim.agent(id) !== undefined };
  const operator = requireOperator(operatorToken);
  api.get('/persona-files', guarded(listFiles(editor)));
  api.get('/persona-files/:id', guarded(viewFile(editor)));
  api.post('/persona-files/:id/check', operator, guarded(checkFields(editor)));
  api.post('/persona-files/:id/preview', operator, guarded(previewFields(editor)));
  api.put('/persona-files/:id', operator, guarded(saveFile(editor)));
  api.delete('/persona-files/:id', operator, guarded(deleteFile(editor)));
  api.post('/persona-files/:id/rename', operator, guarded(renameFile(editor)));
  api.post('/agents', operator, guarded(addAgent(editor)));
  api.delete('/agents/:id', operator, guarded(removeAgent(editor)));
}

function listFiles({ town, folder, checks, inTown }: Editor): Handler {
  return (_req, res) => {
    const files: PersonaFileEntry[] = folder.list().map(({ id, file }) => {
      const checked = checkPersonaText(folder.read(id) ?? '', folder.pathOf(id), town.map, checks.knownIds(id));
      return {
        id,
        file,
        name: checked.persona?.name ?? checked.draft.name ?? null,
        inTown: inTown(id),
        problems: checked.errors.map((e) => `${e.field ? `${e.field}: ` : ''}${e.what}`),
      };
    });
    const withFile = new Set(files.map((f) => f.id));
    const reply: PersonaFileList = {
      files,
      agentsWithoutFile: town.sim
        .agents()
        .filter((a) => !withFile.has(a.spec.id))
        .map((a) => ({ id: a.spec.id, name: a.spec.name })),
      spawns: town.map.spawns.map((s) => s.name),
      mind: { kind: town.mind.kind, label: town.mind.label },
    };
    res.json(reply);
  };
}

function viewFile({ town, folder, checks, inTown }: Editor): Handler {
  return (req, res) => {
    const id = idParam(req);
    const text = folder.read(id);
    if (text === null) throw new HttpError(404, `there is no ${id}.yaml in the persona folder`);
    const checked = checkPersonaText(text, folder.pathOf(id), town.map, checks.knownIds(id));
    const view: PersonaFileView = {
      id,
      file: folder.pathOf(id).split(/[\\/]/).pop()!,
      text,
      fields: readPersonaFields(text),
      inTown: inTown(id),
      errors: checked.errors.map(problem),
    };
    res.json(view);
  };
}

function checkFields({ town, checks, inTown }: Editor): Handler {
  return (req, res, next) => {
    const id = String(req.params.id);
    const { fields } = parseBody(CheckBody, req.body);
    const c = checks.check(id, fields);
    const reply = (preview: PersonaCheckReply['preview']): PersonaCheckReply => ({
      errors: c.errors,
      warnings: c.warnings,
      yaml: c.yaml,
      exists: c.exists,
      inTown: isPersonaId(id) && inTown(id),
      preview,
    });
    if (!c.persona) return void res.json(reply(null));
    previewDayPlan(town, c.persona, 'offline').then((preview) => res.json(reply(preview)), next);
  };
}

function previewFields({ town, checks }: Editor): Handler {
  return (req, res, next) => {
    const id = idParam(req);
    const { fields, mind } = parseBody(PreviewBody, req.body);
    const c = checks.check(id, fields);
    if (!c.persona) throw new HttpError(400, `fix the persona first: ${c.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    previewDayPlan(town, c.persona, mind).then(
      (preview) => res.json(preview),
      (error: unknown) => next(error instanceof PreviewUnavailable ? new HttpError(409, error.message) : error),
    );
  };
}

/** Writes the file (never one that does not load), then brings the change into town: an update, or an addition when asked. */
function saveFile({ town, folder, checks, inTown }: Editor): Handler {
  return (req, res, next) => {
    const id = idParam(req);
    const body = parseBody(SaveBody, req.body);
    const c = checks.check(id, body.fields);
    const refuse = (status: number, refusal: PersonaSaveRefusal) => void res.status(status).json(refusal);
    if (!c.persona)
      return refuse(400, {
        error: `not saved: ${c.errors.length} problem${c.errors.length === 1 ? '' : 's'} (a file that does not load would stop the next start)`,
        errors: c.errors,
      });
    if (body.spawn !== undefined && !town.map.spawns.some((s) => s.name === body.spawn))
      throw new HttpError(400, `spawn: no spawn point '${body.spawn}' in the map`);
    let written: { file: string; created: boolean };
    try {
      written = folder.write(id, c.yaml, { overwrite: body.overwrite === true });
    } catch (error) {
      if (error instanceof PersonaFolderError && error.reason === 'exists') return refuse(409, { error: error.message, exists: true });
      if (error instanceof PersonaFolderError && error.reason === 'read-only') return refuse(403, { error: error.message, readOnly: true });
      if (error instanceof PersonaFolderError) throw new HttpError(409, error.message);
      throw error;
    }
    const reply: PersonaSaveReply = {
      id,
      file: written.file.split(/[\\/]/).pop()!,
      created: written.created,
      added: false,
      updatedInTown: false,
      warnings: c.warnings,
    };
    if (inTown(id)) {
      town.commands.updatePersona(c.persona, BY);
      reply.updatedInTown = true;
    }
    if (!inTown(id) && body.addToTown) {
      town.commands.addAgent(id, BY, { spawn: body.spawn }).then(
        () => res.status(written.created ? 201 : 200).json({ ...reply, added: true }),
        (error: unknown) =>
          next(new HttpError(400, `saved ${reply.file}, but could not add it to the town: ${error instanceof Error ? error.message : String(error)}`)),
      );
      return;
    }
    res.status(written.created ? 201 : 200).json(reply);
  };
}

function deleteFile({ folder, inTown }: Editor): Handler {
  return (req, res) => {
    const id = idParam(req);
    if (inTown(id)) throw new HttpError(409, `'${id}' lives in the town: remove the agent from the town first, then delete its file`);
    try {
      const file = folder.remove(id);
      res.json({ deleted: file.split(/[\\/]/).pop() });
    } catch (error) {
      if (error instanceof PersonaFolderError && error.reason === 'read-only')
        return void res.status(403).json({ error: error.message, readOnly: true } satisfies PersonaSaveRefusal);
      if (error instanceof PersonaFolderError) throw new HttpError(error.reason === 'not-a-persona' ? 404 : 409, error.message);
      throw error;
    }
  };
}

/**
 * A new id for a persona: its file moves, and the town's agent (or its history in this world) goes with
 * it (town/commands.ts renameAgent). A refusal names the field: `to` (not an id, reserved, taken) or `id`.
 */
function renameFile({ town, checks }: Editor): Handler {
  return (req, res, next) => {
    const id = idParam(req);
    const { to } = parseBody(RenameBody, req.body);
    const refuse = (status: number, errors: FieldProblem[]) =>
      void res.status(status).json({ error: `not renamed: ${errors.map((e) => e.message).join('; ')}`, errors } satisfies PersonaSaveRefusal);
    const problems = isPersonaId(to) ? checks.renameProblems(id, to) : [];
    if (problems.length) return refuse(409, problems);
    town.commands.renameAgent(id, to, BY).then(
      (r) => res.json({ ...r, file: r.file.split(/[\\/]/).pop()! } satisfies PersonaRenameReply),
      (error: unknown) => {
        if (error instanceof RenameRefusal) return refuse(error.status, [{ field: error.field, message: error.message }]);
        if (error instanceof PersonaFolderError && error.reason === 'read-only') return refuse(403, [{ field: 'id', message: error.message }]);
        if (error instanceof Error && /lockstep run/.test(error.message))
          return refuse(409, [{ field: 'id', message: `${error.message}: rename when it ends` }]);
        next(error);
      },
    );
  };
}

function addAgent({ town, inTown }: Editor): Handler {
  return (req, res, next) => {
    const { personaId, spawn } = parseBody(AddBody, req.body);
    if (inTown(personaId)) throw new HttpError(409, `'${personaId}' is already in town`);
    town.commands.addAgent(personaId, BY, { spawn }).then(
      (persona) => res.status(201).json({ added: persona.id, name: persona.name }),
      (error: unknown) => next(new HttpError(400, error instanceof Error ? error.message : String(error))),
    );
  };
}

function removeAgent({ town, inTown }: Editor): Handler {
  return (req, res) => {
    const id = String(req.params.id);
    if (!inTown(id)) throw new HttpError(404, `no agent '${id}' in town`);
    town.commands.removeAgent(id as AgentId, BY);
    res.json({ removed: id });
  };
}

type Handler = (req: Request, res: Response, next: NextFunction) => void;

/** A route whose folder errors (a name that is not an id, a folder gone) answer as client errors, with their words. */
function guarded(handler: Handler): Handler {
  return (req, res, next) => {
    try {
      handler(req, res, next);
    } catch (error) {
      next(error instanceof PersonaFolderError ? new HttpError(error.reason === 'not-a-persona' ? 400 : 409, error.message) : error);
    }
  };
}
