// The live room: a thin adapter between a Town and its spectators. It ticks the town, copies what
// changed into the schema state, and turns client messages into Town calls after checking role and
// shape. It holds no rules of its own.
import { Room, ServerError, type Client, type AuthContext } from '@colyseus/core';
import type { TownState } from '../protocol/state';
import { createTownState, syncTick, syncTownClock, townNews } from './stateSync';
import { AgentMessage, ControlMessage, INVALID_TOKEN_MESSAGE, InjectMessage, InspectMessage, InterviewMessage, WhisperMessage } from '../protocol/messages';
import type { WelcomeMessage } from '../protocol/messages';
import { MessageGuard, refuse, type ClientAuth } from './guard';
import type { InspectReply } from '../protocol/inspection';
import type { LoggedEvent } from '../protocol/events';
import type { AgentId } from '../protocol/ids';
import type { Town } from '../town/Town';
import { inspectAgent } from '../town/inspect';
import type { TownListingMetadata } from '../protocol/towns';
import { madeByServer, PEER_HEADER } from './admission';
import { operatorTokenThrottle, TokenThrottle } from '../core/tokenThrottle';

/** Towns by world name, registered by the app before the room is defined. */
export const towns = new Map<string, Town>();

export class TownRoom extends Room<{ state: TownState }> {
  private town!: Town;
  private unsubscribe: (() => void) | null = null;
  private lastTickRealMs = 0;
  private guard!: MessageGuard;
  // A hard cap behind the polite limit above: past it Colyseus drops the client.
  override maxMessagesPerSecond = 60;

  override onCreate(options: { world: string }): void {
    // Each town's one room is made by the server when the town starts (rooms/admission.ts refuses clients' creates).
    if (!madeByServer(options)) throw new Error('town rooms are made by the server; join the town instead');
    const town = towns.get(options.world);
    if (!town) throw new Error(`no town '${options.world}' is running`);
    this.town = town;
    this.autoDispose = false;
    this.setState(createTownState(town));
    this.publishListing(options.world);
    this.setPatchRate(100);
    this.unsubscribe = town.log.onEvents((events) => this.onTownEvents(events));
    this.guard = new MessageGuard(town.wallClock);
    this.lastTickRealMs = town.wallClock.now();
    this.setSimulationInterval(() => this.tick(), 1000 / town.config.tickHz);
    const commands = town.commands;

    this.onMessage('control', (client, raw) => this.guard.handle(client, 'control', ControlMessage, raw, true, async (m) => {
      if (m.op === 'pause') commands.pause(client.sessionId);
      else if (m.op === 'resume') commands.resume(client.sessionId);
      else if (m.op === 'speed') commands.setRate(m.rate, client.sessionId);
      else await commands.step(m.gameMinutes, client.sessionId);
      this.syncClock();
    }));
    this.onMessage('whisper', (client, raw) => this.guard.handle(client, 'whisper', WhisperMessage, raw, true, async (m) => {
      await commands.whisper(m.agentId as AgentId, m.text, client.sessionId);
      client.send('whispered', { agentId: m.agentId });
    }));
    this.onMessage('interview', (client, raw) => this.guard.handle(client, 'interview', InterviewMessage, raw, true, async (m) => {
      const result = await commands.interview(m.agentId as AgentId, m.question, client.sessionId);
      client.send('interview', { requestId: m.requestId, agentId: m.agentId, question: m.question, ...result });
    }));
    this.onMessage('inject', (client, raw) => this.guard.handle(client, 'inject', InjectMessage, raw, true, async (m) => {
      commands.inject(m.text, m.arena ?? null, client.sessionId);
    }));
    this.onMessage('agent', (client, raw) => this.guard.handle(client, 'agent', AgentMessage, raw, true, async (m) => {
      if (m.op === 'add') await commands.addAgent(m.personaId, client.sessionId);
      else commands.removeAgent(m.agentId as AgentId, client.sessionId);
    }));
    this.onMessage('inspect', (client, raw) => this.guard.handle(client, 'inspect', InspectMessage, raw, false, async (m) => {
      const reply: InspectReply = { requestId: m.requestId, ...(await inspectAgent(this.town, m.agentId)) };
      client.send('inspect', reply);
    }));
    this.onMessage('*', (client, type) => refuse(client, String(type), `unknown message type '${String(type)}'`));
  }

  override onAuth(_client: Client, options: { token?: unknown } | undefined, context: AuthContext): ClientAuth {
    const token = options?.token;
    if (token === undefined || token === null || token === '') return { role: 'spectator' };
    if (typeof token !== 'string') throw new ServerError(403, INVALID_TOKEN_MESSAGE);
    const verdict = operatorTokenThrottle().check(peerOf(context), token, this.town.operatorToken);
    if (verdict.kind === 'right') return { role: 'operator' };
    if (verdict.kind === 'throttled') throw new ServerError(429, TokenThrottle.message(verdict.retryAfterMs));
    throw new ServerError(403, INVALID_TOKEN_MESSAGE);
  }

  override onJoin(client: Client): void {
    const auth = client.auth as ClientAuth;
    const welcome: WelcomeMessage = { role: auth.role, world: this.state.world };
    client.send('welcome', welcome);
    this.town.holds.watchers(Math.max(1, this.clients.length), this.town.wallClock.now());
  }

  override onLeave(client: Client): void {
    this.guard.forget(client);
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
    syncTick(this.state, this.town, result);
    if (result.added.length > 0 || result.removed.length > 0) this.publishListing(this.town.config.world);
  }

  /** What /api/towns shows of this town, in the matchmaking listing (shared between processes with Redis). */
  private publishListing(world: string): void {
    const metadata: TownListingMetadata = { world, agents: this.town.sim.agents().length, mind: this.town.mind.label };
    void this.setMetadata(metadata);
  }

  private syncClock(): void {
    syncTownClock(this.state, this.town);
  }

  private readonly nameOf = (id: string) => this.town.personas.get(id)?.name ?? this.town.sim.agent(id)?.spec.name ?? id;

  private onTownEvents(events: LoggedEvent[]): void {
    const news = townNews(events, this.nameOf);
    if (news) this.broadcast('news', news);
  }
}

/** The client's address for the token throttle: the socket's, as the server stamped it (admission.ts), never a header the client set. */
function peerOf(context: AuthContext | undefined): string {
  return context?.headers?.get(PEER_HEADER) ?? 'unknown';
}
