// Replies of the HTTP API (server/src/api/routes.ts) that the browser reads.
import type { PlaceTree } from './places';

/** GET /api/town: what the page needs before it joins the room. */
export interface TownInfo {
  /** The world's name (its file in DATA_DIR, and `?world=` in URLs). */
  name: string;
  /** The map's name for its world (the place tree's root). */
  world: string;
  /** Where the Tiled map is served, e.g. "/maps/town.tmj". */
  mapUrl: string;
  mind: string;
  agents: Array<{ id: string; name: string }>;
  places: PlaceTree;
}

/** One persona file of PERSONAS_DIR whose persona is not in town: what an operator can add. */
export interface AddablePersona {
  /** The file name without `.yaml`: what the `agent` message's `add` names. */
  id: string;
  /** The persona's name, or null when the file does not parse. */
  name: string | null;
  file: string;
  /** Why the file cannot be added as it is (parse errors, places missing from the map); empty when it can. */
  problems: string[];
}

/** GET /api/personas. */
export interface AddablePersonasReply {
  personas: AddablePersona[];
}
