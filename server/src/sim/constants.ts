// Tunables of the simulation, with units in their names.

/** Walking speed: six tiles a game minute (the reference moves one tile per 10-second step). */
export const WALK_TILES_PER_GAME_MINUTE = 6;
/**
 * Each agent runs up to this late on its schedule (a fixed lateness per agent): a town whose plans all
 * change at 9:00 starts its walks over a game minute, ten steps at 1×, instead of all in one step.
 * Shared with the page, which shows the plan step in force on the agent's own clock.
 */
export { SCHEDULE_STAGGER_GAME_MS } from '../protocol/lateness';
/** Ask for the day's plan this long before the agent wakes: a slow mind is not late, and planning overlaps the quiet night. */
export const PLAN_LEAD_MINUTES = 180;
/** An agent sees events this many tiles away, in its own arena. */
export const VISION_RADIUS_TILES = 8;
/**
 * An agent whose arena changed looks again on its next turn, once every this long on its own clock
 * (see latenessGameMs): the occupants of a crowded arena look over several steps, not all in one.
 * Entering an arena and world events are seen at once.
 */
export const PERCEPTION_TURN_GAME_MS = 30_000;
/** At most this many new events are perceived per agent per step: the paper's attention bandwidth. */
export const ATTENTION_BANDWIDTH = 3;
/** How many perceived events an agent remembers having seen, to skip them next time. */
export const HELD_EVENTS_LIMIT = 48;
/** An event seen again after this long is perceived afresh. */
export const REPERCEIVE_AFTER_GAME_MS = 3 * 3_600_000;
/** Observations held back while an operation is in flight, oldest dropped first. */
export const PENDING_OBSERVATIONS_LIMIT = 12;
/** Two agents closer than this, in one arena, are offered to each other's cognition as company to talk with. */
export const CONVERSE_RADIUS_TILES = 4;
/** Someone offered as company and not chosen is not offered to the same agent again for this long. */
export const RECONSIDER_COMPANY_AFTER_GAME_MS = 60 * 60_000;
/** A decision to talk waits this long for both agents to be free (the partner may be deep in a thought), then is forgotten. */
export const TALK_INTENT_GAME_MS = 30 * 60_000;
/**
 * Not another conversation for 15 game minutes after one: time to say hello to someone new (the reference keeps only a
 * pause per pair: PAIR_CONVERSATION_COOLDOWN_GAME_MS).
 */
export const AGENT_CONVERSATION_COOLDOWN_GAME_MS = 15 * 60_000;
/** Cognition starts a talk with someone it knows only this long after its last talk (a stranger may be greeted sooner). */
export const ACQUAINTED_TALK_PAUSE_GAME_MS = 45 * 60_000;
/** The same two agents don't talk again for four game hours. */
export const PAIR_CONVERSATION_COOLDOWN_GAME_MS = 4 * 3_600_000;
/** Each line stays on screen for one game minute before the next one. */
export const LINE_GAME_MS = 60_000;
/** A conversation whose mind never finishes is ended after this long. */
export const CONVERSATION_TIMEOUT_GAME_MS = 30 * 60_000;
