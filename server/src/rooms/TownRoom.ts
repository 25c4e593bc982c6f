// The live room: a thin adapter between a Town and its spectators. It ticks the town, copies what
// changed into the schema state, and turns client messages into Town calls after checking role and
// shape. It holds no rules of its own.
import { Room, type Client, type AuthContext } from '@colyseus/core';
import type { z } from 'zod';
import { TownState } from '../protocol/state';
import { syncAgentState, syncClockState } from './stateSync';
import { AgentMessage, ControlMessage, InjectMessage, InspectMessage, InterviewMessage, WhisperMessage } from '../protocol/messages';
import type { ErrorReply, FeedItem, Role, WelcomeMessage } from '../protocol/messages';
import type { InspectReply } from '../protocol/inspection';
import type { LoggedEvent } from '../protocol/events';
import type { AgentId } from '../protocol/ids';
import type { Town } from '../town/Town';
import { describeEvent } from '../town/feed';
import { inspectAgent } from '../town/inspect';

export interface ClientAuth {
  role: Role;
}

/** Messages a client may send per second before it gets "slow down" errors. */
const MESSAGES_PER_SECOND = 8;
const MESSAGE_BURST = 16;

/** Towns by world name, registered by the app before the room is defined. */
export const towns = new Map<string, Town>();

export class TownRoom extends Room<{ state: TownState }> {
  private town!: Town;
  private unsubscribe: (() => void) | null = null;
  private lastTickRealMs = 0;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  // A hard cap behind the polite limit above: past it Colyseus drops the client.
  override maxMessagesPerSecond = 60;

  override onCreate(options: { world: string }): void {
    const town = towns.get(options.world);
    if (!town) throw new Error(`no town '${options.world}' is running`);
    this.town = town;
    this.autoDispose = false;
    const state = new TownState();
    state.world = town.map.places.world;
    state.mapWidth = town.map.widthTiles;
    state.mind = town.mind.label;
    this.setState(state);
    for (const agent of town.sim.agents()) this.syncAgent(agent.spec.id);
    this.syncClock();
    this.setPatchRate(100);
    this.unsubscribe = town.log.onEvents((events) => this.onTownEvents(events));
    this.lastTickRealMs = town.wallClock.now();
    this.setSimulationInterval(() => this.tick(), 1000 / town.config.tickHz);
    const commands = town.commands;

    this.onMessage('control', (client, raw) => this.handle(client, 'control', ControlMessage, raw, true, async (m) => {
      if (m.op === 'pause') commands.pause(client.sessionId);
      else if (m.op === 'resume') commands.resume(client.sessionId);
      else if (m.op === 'speed') commands.setRate(m.rate, client.sessionId);
      else await commands.step(m.gameMinutes, client.sessionId);
      this.syncClock();
    }));
    this.onMessage('whisper', (client, raw) => this.handle(client, 'whisper', WhisperMessage, raw, true, async (m) => {
      await commands.whisper(m.agentId as AgentId, m.text, client.sessionId);
      client.send('whispered', { agentId: m.agentId });
    }));
    this.onMessage('interview', (client, raw) => this.handle(client, 'interview', InterviewMessage, raw, true, async (m) => {
      const result = await commands.interview(m.agentId as AgentId, m.question, client.sessionId);
      client.send('interview', { requestId: m.requestId, agentId: m.agentId, question: m.question, ...result });
    }));
    this.onMessage('inject', (client, raw) => this.handle(client, 'inject', InjectMessage, raw, true, async (m) => {
      commands.inject(m.text, m.arena ?? null, client.sessionId);
    }));
    this.onMessage('agent', (client, raw) => this.handle(client, 'agent', AgentMessage, raw, true, async (m) => {
      if (m.op === 'add') await commands.addAgent(m.personaId, client.sessionId);
      else commands.removeAgent(m.agentId as AgentId, client.sessionId);
    }));
    this.onMessage('inspect', (client, raw) => this.handle(client, 'inspect', InspectMessage, raw, false, async (m) => {
      const reply: InspectReply = { requestId: m.requestId, ...(await inspectAgent(this.town, m.agentId)) };
      client.send('inspect', reply);
    }));
    this.onMessage('*', (client, type) => this.refuse(client, String(type), `unknown message type '${String(type)}'`));
  }

  override onAuth(_client: Client, options: { token?: unknown } | undefined, _context: AuthContext): ClientAuth {
    const token = options?.token;
    if (token === undefined || token === null || token === '') return { role: 'spectator' };
    if (typeof token === 'string' && token === this.town.operatorToken) return { role: 'operator' };
    throw new Error('invalid operator token');
  }

  override onJoin(client: Client): void {
    const auth = client.auth as ClientAuth;
    const welcome: WelcomeMessage = { role: auth.role, world: this.state.world };
    client.send('welcome', welcome);
    this.town.holds.watchers(Math.max(1, this.clients.length), this.town.wallClock.now());
  }

  override onLeave(client: Client): void {
    this.buckets.delete(client.sessionId);
    this.town.holds.watchers(this.clients.filter((c) => c !== client).length, this.town.wallClock.now());
  }

  override onDispose(): void {
    this.unsubscribe?.();
  }

  private tick(): void {
    const now = this.town.wallClock.now();
    const delta = now - this.lastTickRealMs;
    this.lastTickRealMs = now;
    const result = this.town.loop.tick(delta);
    for (const id of result.removed) this.state.agents.delete(id);
    for (const id of result.changed) this.syncAgent(id);
    for (const id of result.added) this.syncAgent(id);
    this.syncClock();
  }

  private syncClock(): void {
    syncClockState(this.state, { gameMs: this.town.clock.gameMs, rate: this.town.clock.rate, paused: this.town.clock.paused, holds: this.town.holds.list() });
  }

  private syncAgent(id: string): void {
    syncAgentState(this.state, this.town.sim, id);
  }

  private onTownEvents(events: LoggedEvent[]): void {
    const feed: FeedItem[] = [];
    for (const e of events) {
      if (e.kind === 'conversation.utterance') {
        const d = e.data as { conversationId: number; speaker: string; listener: string; text: string };
        this.broadcast('utterance', { ...d, gameMs: e.gameMs });
      }
      const text = describeEvent(e, this.town);
      if (text) feed.push({ seq: e.seq, gameMs: e.gameMs, kind: e.kind, agentId: e.agentId, text });
    }
    if (feed.length) this.broadcast('feed', feed);
  }

  /** Checks rate, role and shape, then runs the action; every refusal is answered with a clear error. */
  private handle<S extends z.ZodType>(client: Client, type: string, schema: S, raw: unknown, operatorOnly: boolean, run: (message: z.infer<S>) => Promise<void>): void {
    if (!this.allow(client)) return this.refuse(client, type, `too many messages: at most ${MESSAGES_PER_SECOND} a second`);
    if (operatorOnly && (client.auth as ClientAuth | undefined)?.role !== 'operator') return this.refuse(client, type, `'${type}' needs the operator token; spectators can only watch`);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.refuse(client, type, `bad '${type}' message: ${issue.path.join('.') || '(message)'}: ${issue.message}`);
    }
    run(parsed.data).catch((error: unknown) => this.refuse(client, type, error instanceof Error ? error.message : String(error)));
  }

  private refuse(client: Client, type: string, message: string): void {
    const reply: ErrorReply = { type, message };
    client.send('error', reply);
  }

  private allow(client: Client): boolean {
    const now = this.town.wallClock.now();
    const b = this.buckets.get(client.sessionId) ?? { tokens: MESSAGE_BURST, at: now };
    b.tokens = Math.min(MESSAGE_BURST, b.tokens + ((now - b.at) / 1000) * MESSAGES_PER_SECOND);
    b.at = now;
    this.buckets.set(client.sessionId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
