// The room state that every spectator receives, in @colyseus/schema. Shared with the client through
// the `@protocol/*` alias. Movement is described once per walk (a path, its start and its speed), never
// per tick: the client interpolates with `positionOnPath` from ./movement.
import { schema, t, type SchemaType } from '@colyseus/schema';

export const AgentState = schema(
  {
    id: t.string().default(''),
    name: t.string().default(''),
    /** Colours palette-swapped onto the base character sprite, "#rrggbb". */
    skin: t.string().default('#e0ac69'),
    hair: t.string().default('#3b2a1a'),
    shirt: t.string().default('#2e86ab'),
    pants: t.string().default('#333333'),
    /** What the agent is doing, e.g. "brewing coffee". */
    action: t.string().default(''),
    emoji: t.string().default(''),
    /** The tile where the path starts, or where the agent stands when it has no path. */
    tileX: t.uint16().default(0),
    tileY: t.uint16().default(0),
    /**
     * Waypoints of the walk as tile indices (y * mapWidth + x): start, turns, end. The last walk stays after it ends (the
     * agent stands at its end once its time is over: an arrival sends nothing); empty when the agent stands elsewhere.
     */
    path: t.array('uint32'),
    pathStartGameMs: t.float64().default(0),
    tilesPerGameMinute: t.float32().default(0),
    /** The other agent in conversation, or ''. */
    talkingTo: t.string().default(''),
    /** The line being said right now, or ''. */
    speech: t.string().default(''),
    asleep: t.boolean().default(false),
    /** A cognition operation (LLM or offline mind) is in flight for this agent. */
    thinking: t.boolean().default(false),
  },
  'AgentState',
);
export type AgentState = SchemaType<typeof AgentState>;

export const TownState = schema(
  {
    /** Game time, ms since the Unix epoch of the simulated calendar (read with UTC functions). */
    gameMs: t.float64().default(0),
    /** Game ms per real ms (60 = one game minute per real second). */
    rate: t.float32().default(60),
    paused: t.boolean().default(false),
    /** Why the clock is held, if it is: '' | 'starting' | 'paused' | 'idle' | 'waiting-for-minds' | 'budget' | 'storage'. */
    holdReason: t.string().default(''),
    /** Why the world file refuses writes ('' while it takes them): "SQLITE_FULL: database or disk is full". */
    storageProblem: t.string().default(''),
    /** Which mind runs: "offline" or "llm: <model> @ <host>". */
    mind: t.string().default('offline'),
    world: t.string().default(''),
    mapWidth: t.uint16().default(0),
    /** 'live': the running town; 'replay': one viewer's replay of a recorded moment (read-only). */
    mode: t.string().default('live'),
    /** Replay only: the world file replayed ('' for the live world), its recorded span, and the play rate (0: paused). */
    replayWorld: t.string().default(''),
    spanStartGameMs: t.float64().default(0),
    spanEndGameMs: t.float64().default(0),
    replayRate: t.float32().default(0),
    /** Replay only: why this world replays with less detail ('' when it has all of it). */
    detail: t.string().default(''),
    agents: t.map(AgentState),
  },
  'TownState',
);
export type TownState = SchemaType<typeof TownState>;
