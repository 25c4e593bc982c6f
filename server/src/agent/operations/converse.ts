// A conversation: turn by turn (each speaker retrieves memories about the partner and the last line, and
// has its news at hand; each line goes straight to the sim), or whole in one call. Once the lines are
// out the sim need not wait: the summary, what each learned, how each now sees the other (the revised
// relationship, logged as `relationship.revised`) and each one's planning thought come from one
// judgement, which also records the invitations made (`conversation.summarised`); a planning thought that
// accepts an invitation for later today re-plans the day. Then both may reflect.
import type { AgentId } from '../../protocol/ids';
import type { Input } from '../../sim/types';
import type { Persona } from '../../world/persona';
import { fitAction, planOfKept } from '../../protocol/plan';
import { minuteOfWakingDay, planMomentAt } from '../../world/clockText';
import type { ConversationLine, MindContext, PlanningThought, Speaker } from '../mind';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';
import { maybeReflect } from './reflect';

export async function converse(
  c: CognitionContext,
  memory: AgentMemory,
  conversationId: number,
  initiator: AgentId,
  partner: AgentId,
  gameMs: number,
  send: (input: Input) => void,
  release: () => void,
): Promise<void> {
  const people: [Persona, Persona] = [c.persona(initiator), c.persona(partner)];
  const before: [string | null, string | null] = [c.relationshipsOf(initiator).get(partner) ?? null, c.relationshipsOf(partner).get(initiator) ?? null];
  const lines =
    c.settings.conversationMode === 'whole'
      ? await wholeConversation(c, memory, people, before, gameMs)
      : await turnByTurn(c, memory, people, before, gameMs, conversationId, send);
  if (c.settings.conversationMode === 'whole') for (const l of lines) send({ kind: 'utterance', conversationId, speaker: l.speaker as AgentId, text: l.text });
  // The sim shows the lines and ends the talk; what follows is the participants' own business.
  release();
  const contexts: [MindContext, MindContext] = [c.mindContext(initiator, gameMs), c.mindContext(partner, gameMs)];
  const summary = await c.mind.summariseConversation({ contexts, lines, relationships: before });
  // The invitations the summary records (none is an empty list): what "invited" is read from (analysis/metrics.ts).
  const invitations = (summary.invitations ?? []).map((i) => ({ ...i, hostId: i.hostId as AgentId | null, guestId: i.guestId as AgentId }));
  c.deps.emit([{ gameMs, kind: 'conversation.summarised', agentId: null, data: { conversationId, invitations } }]);
  // Both participants remember at once: their importance ratings are independent calls.
  await Promise.all(
    [0, 1].map(async (i) => {
      const [self, other] = i === 0 ? people : [people[1], people[0]];
      const ctx = contexts[i];
      const learned = (summary.learned[self.id] ?? []).map((fact) => ({ fact, text: `${fact} (heard from ${other.name})` }));
      const planning = c.settings.ablation === 'no-planning' ? null : (summary.plans[self.id] ?? null);
      const texts = [summary.summary, ...learned.map((l) => l.text), ...(planning ? [planning.thought] : [])];
      const ratings = await c.mind.rateImportance(ctx, texts);
      const ids = await memory.remember(self.id, [
        {
          kind: 'chat',
          description: summary.summary,
          importance: ratings[0],
          gameMs,
          triple: { subject: self.name, predicate: 'talked with', object: other.name },
        },
        ...learned.map((l, k) => ({
          kind: 'chat' as const,
          description: l.text,
          importance: ratings[1 + k],
          gameMs,
          triple: { subject: other.name, predicate: 'said', object: l.fact },
        })),
      ]);
      const revised = c.deps.records.reviseRelationship(self.id, other.id, summary.relationships[self.id]?.trim() || before[i] || summary.summary, gameMs);
      c.deps.emit([
        { gameMs, kind: 'relationship.revised', agentId: self.id, data: { otherId: other.id, summary: revised.summary, interactions: revised.interactions } },
      ]);
      if (planning) {
        // A planning thought rests on the talk: it cites the memories just made (and so is no whisper).
        const thought = {
          kind: 'thought' as const,
          description: planning.thought,
          importance: ratings[texts.length - 1],
          gameMs,
          evidenceIds: ids,
          triple: { subject: self.name, predicate: planning.commitment === 'decline' ? 'declined' : 'plans', object: planning.thought },
        };
        await memory.remember(self.id, [thought], false);
        const replan = replanFor(c, self.id, planning, gameMs);
        if (replan) send(replan);
      }
    }),
  );
  c.deps.records.saveConversation({
    id: conversationId,
    a: initiator,
    b: partner,
    startGameMs: gameMs,
    endGameMs: gameMs,
    summary: summary.summary,
    lines: lines.map((l) => ({ speaker: l.speaker as AgentId, text: l.text, gameMs })),
  });
  await Promise.all([maybeReflect(c, memory, initiator, gameMs), maybeReflect(c, memory, partner, gameMs)]);
}

async function turnByTurn(
  c: CognitionContext,
  memory: AgentMemory,
  people: [Persona, Persona],
  before: [string | null, string | null],
  gameMs: number,
  conversationId: number,
  send: (input: Input) => void,
): Promise<ConversationLine[]> {
  const lines: ConversationLine[] = [];
  const max = c.settings.maxConversationTurns;
  for (let turn = 0; turn < max; turn++) {
    const i = turn % 2;
    const [speaker, listener] = i === 0 ? people : [people[1], people[0]];
    const lastLine = lines.length ? lines[lines.length - 1].text : '';
    const memories = await memory.retrieve(speaker.id, `${listener.name} ${lastLine}`, gameMs, 5);
    const reply = await c.mind.converseTurn(c.mindContext(speaker.id, gameMs), {
      partner: listener,
      relationship: before[i],
      memories,
      news: memory.news(speaker.id, gameMs, listener),
      history: lines,
      turn,
      maxTurns: max,
    });
    const text = reply.text.trim();
    if (text) {
      lines.push({ speaker: speaker.id, speakerName: speaker.name, text, acts: reply.acts });
      send({ kind: 'utterance', conversationId, speaker: speaker.id, text });
    }
    if (reply.end) break;
  }
  return lines;
}

async function wholeConversation(
  c: CognitionContext,
  memory: AgentMemory,
  people: [Persona, Persona],
  before: [string | null, string | null],
  gameMs: number,
): Promise<ConversationLine[]> {
  const speakers = await Promise.all(
    [0, 1].map(async (i): Promise<Speaker> => {
      const [self, other] = i === 0 ? people : [people[1], people[0]];
      return {
        ctx: c.mindContext(self.id, gameMs),
        partner: other,
        relationship: before[i],
        memories: await memory.retrieve(self.id, other.name, gameMs, 5),
        news: memory.news(self.id, gameMs, other),
      };
    }),
  );
  const ids = new Set(people.map((p) => p.id as string));
  return (await c.mind.converseWhole([speakers[0], speakers[1]], c.settings.maxConversationTurns))
    .filter((l) => ids.has(l.speaker) && l.text.trim())
    .slice(0, c.settings.maxConversationTurns);
}

/** The re-plan an accepted invitation makes: its action fitted into today's plan, if it is still ahead today. */
function replanFor(c: CognitionContext, agentId: AgentId, planning: PlanningThought, gameMs: number): Input | null {
  const appointment = planning.appointment;
  const view = c.deps.sim.agent(agentId);
  if (!appointment || !view?.plan) return null;
  const { day, minute } = planMomentAt(gameMs, view.spec.wakeMinute, view.spec.sleepMinute);
  const sleep = minuteOfWakingDay(view.spec.sleepMinute, view.spec.wakeMinute);
  if (view.plan.day !== day || appointment.startMinute <= minute || appointment.startMinute >= sleep) return null;
  return {
    kind: 'replan',
    agentId,
    fromMinute: appointment.startMinute,
    actions: fitAction(planOfKept(view.plan).actions, appointment),
    reason: planning.thought,
  };
}
