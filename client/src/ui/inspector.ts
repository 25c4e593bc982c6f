// The inspector: everything about one agent. Its header (action, speech) follows the live room
// state; its place, the sections below, and the plan step in force come from the server's `inspect` reply
// (read-only for anyone, refreshed while open and whenever the agent's action or walk changes). The sections are one list, SECTIONS, each saying which
// data it shows: a refresh redraws only the sections whose data changed, and never one that holds a
// focused field or typed text. The operator's forms are drawn once per agent, so typing survives.
import type { TownConnection } from '../net/townConnection';
import type { AgentInspection, InspectedMemory, InspectReply, LlmEndpointLive, LlmModelLive } from '@protocol/inspection';
import { formatClock, formatGameTime } from '@protocol/time';
import { el, focusedField, setText } from './dom';

const REFRESH_MS = 3000;

/** What a section may use besides the reply: names of other agents, the forms, and its own redraw. */
interface SectionContext {
  connection: TownConnection;
  agentName(id: string): string;
  forms: OperatorForms | null;
  openReflections: Set<number>;
  redraw(): void;
}

interface Section<T> {
  key: string;
  /** The data the section shows, or null to leave it out; compared as JSON between replies. */
  pick(d: AgentInspection, ctx: SectionContext): T | null;
  /** The heading, from the same data (none for the persona lines). */
  title?(data: T): string;
  draw(data: T, ctx: SectionContext): Node[];
}

const section = <T>(s: Section<T>): Section<unknown> => s as Section<unknown>;

/** The inspector's sections, in order. To add one, add an entry: it is drawn and refreshed like the rest. */
export const SECTIONS: Array<Section<unknown>> = [
  section({
    key: 'persona',
    pick: (d) => ({ age: d.age, innate: d.innate, learned: d.learned, currently: d.currently, home: d.home, workplace: d.workplace }),
    draw: (p) => [
      el('p', { className: 'persona' }, `${p.age}, ${p.innate.join(', ')}. ${p.learned} `, el('em', { textContent: p.currently })),
      el('p', { className: 'muted', textContent: `home: ${p.home}${p.workplace ? ` · work: ${p.workplace}` : ''}` }),
    ],
  }),
  section({
    key: 'operator',
    // Drawn once per agent: its data never changes while the agent is shown.
    pick: (d, ctx) => (ctx.forms ? { id: d.id } : null),
    draw: (_d, ctx) => [ctx.forms!.root],
  }),
  section({
    key: 'plan',
    // The step in force is not part of the data: Inspector.highlightStep marks it from each reply's currentIndex.
    pick: (d) => (d.plan ? { day: d.plan.day, broadStrokes: d.plan.broadStrokes, actions: d.plan.actions } : null),
    title: () => 'Today\u2019s plan',
    draw: (plan) => [
      el('p', { className: 'muted', textContent: plan.broadStrokes.join(' ') }),
      // Numbers are text, not list markers: "10." and up are not clipped.
      el(
        'ol',
        { className: 'plan' },
        ...plan.actions.map((a, i) =>
          el(
            'li',
            {},
            el('span', { className: 'step-no', textContent: `${i + 1}.` }),
            el('span', { className: 'step-time', textContent: formatClock(a.startMinute) }),
            el('span', { className: 'step-what', textContent: `${a.emoji} ${a.description}` }),
            el('span', { className: 'step-where', textContent: ` @ ${a.address}` }),
          ),
        ),
      ),
    ],
  }),
  section({
    key: 'relevant',
    pick: (d) => ({ focus: d.focus, memories: d.relevant }),
    title: (r) => `Memories, scored for “${r.focus}”`,
    draw: (r) => [memoryTable(r.memories)],
  }),
  section({
    key: 'recent',
    pick: (d) => d.recent.slice(0, 12),
    title: () => 'Recent memories',
    draw: (memories) => [memoryTable(memories)],
  }),
  section({
    key: 'reflections',
    pick: (d, ctx) => {
      if (!d.reflections.length) return null;
      return { reflections: d.reflections, open: d.reflections.filter((r) => ctx.openReflections.has(r.id)).map((r) => r.id) };
    },
    title: () => 'Reflections',
    draw: ({ reflections, open }, ctx) => [
      el(
        'ul',
        { className: 'reflections' },
        ...reflections.map((r) => {
          const isOpen = open.includes(r.id);
          const toggle = () => {
            if (isOpen) ctx.openReflections.delete(r.id);
            else ctx.openReflections.add(r.id);
            ctx.redraw();
          };
          const li = el('li', {}, el('button', { type: 'button', className: 'link', textContent: `💭 ${r.description}`, title: 'show the evidence' }));
          li.querySelector('button')!.addEventListener('click', toggle);
          if (isOpen) li.append(el('ul', { className: 'evidence' }, ...r.evidence.map((e) => el('li', { textContent: `#${e.id} ${e.description}` }))));
          return li;
        }),
      ),
    ],
  }),
  section({
    key: 'whispers',
    pick: (d) => (d.whispers.length ? d.whispers : null),
    title: () => 'Whispered thoughts',
    draw: (whispers) => [
      el('ul', { className: 'whispers' }, ...whispers.map((w) => el('li', { textContent: `🤫 ${w.description}`, title: formatGameTime(w.createdGameMs) }))),
    ],
  }),
  section({
    key: 'relationships',
    pick: (d) => (d.relationships.length ? d.relationships : null),
    title: () => 'Relationships',
    // What the agent thinks of each person: revised after every talk (how often, and when last), or the persona file's line.
    draw: (relationships, ctx) => [
      el(
        'ul',
        { className: 'relationships' },
        ...relationships.map((r) =>
          el(
            'li',
            {
              title:
                r.lastGameMs === null ? 'from the persona file; they have not talked yet' : `revised after their last talk, ${formatGameTime(r.lastGameMs)}`,
            },
            el('strong', { textContent: ctx.agentName(r.otherId) }),
            el('span', {
              className: 'talks',
              textContent: r.interactions > 0 ? ` · talked ${r.interactions}× · last ${formatGameTime(r.lastGameMs ?? 0)}` : ' · not talked yet',
            }),
            el('div', { textContent: r.summary }),
          ),
        ),
      ),
    ],
  }),
  section({
    key: 'llm',
    pick: (d) => d.llm,
    title: () => 'LLM use',
    draw: (llm) => {
      const tokens = (llm.promptTokens + llm.completionTokens).toLocaleString('en');
      const h = llm.help;
      const help =
        h && h.fallbacks + h.repairs + h.mends + h.longer > 0
          ? `${h.repairs} repaired · ${h.mends} mended · ${h.longer} asked longer · ${h.fallbacks} fell back to the offline mind`
          : null;
      return [
        el('p', { textContent: `${llm.calls} calls · ${tokens} tokens · $${llm.costUsd.toFixed(4)}` }),
        ...(help ? [el('p', { className: 'llm-help', textContent: help })] : []),
        ...(llm.endpoints?.length ? [endpointTable(llm.endpoints)] : []),
        ...(llm.model ? [el('p', { className: 'llm-model', textContent: modelLine(llm.model) })] : []),
      ];
    },
  }),
];

/** The model in this process (LLM_MODEL_FILE), as /healthz has it. */
function modelLine(m: LlmModelLive): string {
  const speed = (x: number | null) => (x === null ? '–' : `${x.toFixed(0)}`);
  return (
    `model ${m.file} (${m.quantisation}, ${(m.bytes / 1e6).toFixed(0)} MB, in this process) · ` +
    `${speed(m.promptTokensPerS)} prompt / ${speed(m.generationTokensPerS)} generated tokens a second · ` +
    `${m.running} of ${m.sequences} busy, ${m.waiting} waiting`
  );
}

/** The town's endpoints (several: LLM_ENDPOINTS), as /healthz has them: one row each. */
function endpointTable(endpoints: LlmEndpointLive[]): HTMLElement {
  const head = ['endpoint', 'state', 'busy', 'calls', 'errors', 'out / back', 'p50 / p99', 'tokens'];
  const tips = ['', '', 'calls in flight of its concurrency', '', 'calls that failed', 'times taken out / back in', 'latency over its last 1,000 answers', ''];
  const ms = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(0)} s` : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);
  return el(
    'table',
    { className: 'llm-endpoints' },
    el('tr', {}, ...head.map((h, i) => el('th', { textContent: h, title: tips[i] }))),
    ...endpoints.map((e) =>
      el(
        'tr',
        { className: `endpoint-${e.state}`, title: e.lastError ? `last error: ${e.lastError}` : '' },
        ...[
          e.name,
          e.state,
          `${e.inFlight} of ${e.concurrency}`,
          String(e.calls),
          String(e.failed),
          `${e.takenOut} / ${e.broughtBack}`,
          e.ok ? `${ms(e.latencyP50Ms)} / ${ms(e.latencyP99Ms)}`.replace(/ ms \//, ' /') : '–',
          (e.promptTokens + e.completionTokens).toLocaleString('en'),
        ].map((text) => el('td', { textContent: text })),
      ),
    ),
  );
}

export class Inspector {
  private agentId: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private requestSeq = 0;
  private last: AgentInspection | null = null;
  private ctx: SectionContext | null = null;
  private readonly drawn = new Map<string, { element: HTMLElement; json: string | null }>();
  private highlighted = -1;
  /** The live action last seen (a change asks the server for the step in force). */
  private doing: string | null = null;
  /** Replies drawn since the page opened (the browser tests check that a refresh happened). */
  replies = 0;
  private readonly live = {
    name: el('h2'),
    action: el('div', { className: 'action' }),
    place: el('div', { className: 'place' }),
    speech: el('blockquote', { className: 'speech' }),
  };
  private readonly body = el('div', { className: 'sections' });
  private readonly message = el('p', { className: 'muted loading' });

  constructor(
    private readonly connection: TownConnection,
    private readonly root: HTMLElement,
  ) {
    const close = el('button', { type: 'button', className: 'close', textContent: '×', title: 'close (Esc)', onclick: () => this.onClose() });
    root.replaceChildren(el('header', {}, this.live.name, close), this.live.action, this.live.place, this.live.speech, this.message, this.body);
    connection.on('inspect', (m) => {
      const reply = m as InspectReply;
      if (reply.id !== this.agentId) return;
      if ('error' in reply) {
        this.message.textContent = reply.error;
        this.message.hidden = false;
        return;
      }
      this.last = reply;
      this.replies++;
      this.message.hidden = true;
      this.drawSections();
    });
    connection.on('interview', (m) => {
      const r = m as { agentId: string; question: string; answer: string };
      if (r.agentId === this.agentId) this.ctx?.forms?.showAnswer(r.question, r.answer);
    });
    connection.on('whispered', (m) => {
      if ((m as { agentId: string }).agentId === this.agentId) this.ctx?.forms?.whispered();
    });
  }

  get shown(): string | null {
    return this.agentId;
  }

  /** Set by main: what closing the inspector does (stop following, then `show(null)`). */
  onClose: () => void = () => this.show(null);

  show(agentId: string | null): void {
    if (agentId === this.agentId) return;
    this.agentId = agentId;
    this.last = null;
    this.highlighted = -1;
    this.doing = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.drawn.clear();
    this.body.replaceChildren();
    this.root.hidden = agentId === null;
    if (!agentId) {
      this.ctx = null;
      return;
    }
    const live = this.connection.state.agents.get(agentId);
    const name = live?.name ?? agentId;
    this.ctx = {
      connection: this.connection,
      agentName: (id) => this.connection.state.agents.get(id)?.name ?? id,
      forms: this.connection.role === 'operator' ? new OperatorForms(this.connection, { id: agentId, name }, () => String(++this.requestSeq)) : null,
      openReflections: new Set(),
      redraw: () => this.drawSections(),
    };
    for (const s of SECTIONS) {
      const element = el('section', { hidden: true });
      element.dataset.section = s.key;
      this.drawn.set(s.key, { element, json: null });
      this.body.append(element);
    }
    this.message.textContent = 'loading…';
    this.message.hidden = false;
    this.root.scrollTop = 0;
    this.tick();
    this.request();
    this.timer = setInterval(() => this.request(), REFRESH_MS);
  }

  /** Draws the shown agent afresh (after a switch between the live town and a replay: another source, other forms). */
  reset(): void {
    const id = this.agentId;
    if (id === null) return;
    this.agentId = null;
    this.show(id);
  }

  /** Asks for the shown agent now (a replay moved to another moment). */
  refresh(): void {
    this.request();
  }

  /**
   * Called every frame or so: the header from the live state, and the place from the last inspection (the room's state
   * does not carry every agent's place). A new action or walk asks for a fresh inspection (its plan step, its place).
   */
  tick(): void {
    const id = this.agentId;
    if (!id) return;
    const agent = this.connection.state.agents.get(id);
    const doing = agent ? `${agent.action}@${agent.pathStartGameMs}` : '';
    if (doing !== this.doing) {
      if (this.doing !== null) this.request();
      this.doing = doing;
    }
    setText(this.live.name, agent?.name ?? id);
    setText(this.live.action, agent ? `${agent.asleep ? '😴' : agent.emoji} ${agent.action}` : 'left the town');
    setText(this.live.place, agent && this.last ? this.last.action.place : '');
    setText(this.live.speech, agent?.speech ? `“${agent.speech}”` : '');
    // Set only when it changes: setting it, even to what it is, costs a style pass every frame.
    if (this.live.speech.hidden !== !agent?.speech) this.live.speech.hidden = !agent?.speech;
    this.highlightStep();
  }

  private request(): void {
    if (this.agentId) this.connection.send('inspect', { requestId: String(++this.requestSeq), agentId: this.agentId });
  }

  private drawSections(): void {
    const d = this.last;
    const ctx = this.ctx;
    if (!d || !ctx) return;
    for (const s of SECTIONS) {
      const slot = this.drawn.get(s.key)!;
      const data = s.pick(d, ctx);
      const json = data === null ? null : JSON.stringify(data);
      if (json === slot.json || holdsInput(slot.element)) continue;
      slot.json = json;
      slot.element.hidden = data === null;
      if (data === null) slot.element.replaceChildren();
      else slot.element.replaceChildren(...(s.title ? [el('h3', { textContent: s.title(data) })] : []), ...s.draw(data, ctx));
      if (s.key === 'plan') this.highlighted = -1;
    }
    this.highlightStep();
  }

  /**
   * Marks the plan step in force as the server's inspection says (the step of the agent's current action; it knows
   * the agent's waking day: after midnight, someone whose bedtime is later is still on the previous day's plan), and scrolls the plan
   * list, only the list, so that the step is in view.
   */
  private highlightStep(): void {
    const plan = this.last?.plan;
    const list = this.drawn.get('plan')?.element.querySelector<HTMLElement>('ol.plan');
    if (!plan || !list) return;
    // The step goes with the action the header shows: none while the reply is of an action the agent has left (a
    // fresh one is asked for as the action changes), so the two never name different things.
    const shown = this.agentId === null ? undefined : this.connection.state.agents.get(this.agentId);
    const index = shown && shown.action !== this.last!.action.description ? -1 : plan.currentIndex;
    if (index === this.highlighted) return;
    this.highlighted = index;
    for (const old of list.querySelectorAll('li.current')) {
      old.classList.remove('current');
      old.removeAttribute('aria-current');
    }
    const item = index >= 0 ? (list.children[index] as HTMLElement | undefined) : undefined;
    if (!item) return;
    item.classList.add('current');
    item.setAttribute('aria-current', 'step');
    scrollIntoList(list, item);
  }
}

/** Scrolls `list` (and nothing around it) so that `item` sits in its middle, or as near as the list's ends allow. */
export function scrollIntoList(list: HTMLElement, item: HTMLElement): void {
  const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  list.scrollTop = Math.max(0, top - list.clientHeight / 2 + item.offsetHeight / 2);
}

/** The operator's interview and whisper forms for one agent, and the remove control. */
class OperatorForms {
  readonly root: HTMLElement;
  private readonly answer = el('div', { className: 'answer', hidden: true });
  private readonly note = el('p', { className: 'muted whisper-note', hidden: true });

  constructor(
    private readonly connection: TownConnection,
    agent: { id: string; name: string },
    nextRequestId: () => string,
  ) {
    const first = agent.name.split(' ')[0];
    const question = el('input', { type: 'text', placeholder: `ask ${first} something…`, maxLength: 500, name: 'question' });
    question.setAttribute('aria-label', `interview question for ${agent.name}`);
    const interview = el(
      'form',
      {
        className: 'op-form interview-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const q = question.value.trim();
          if (!q) return;
          this.showAnswer(q, '…');
          connection.send('interview', { requestId: nextRequestId(), agentId: agent.id, question: q });
          question.value = '';
        },
      },
      question,
      el('button', { type: 'submit', textContent: 'Interview' }),
    );
    const whisperText = el('input', { type: 'text', placeholder: 'whisper a thought…', maxLength: 500, name: 'whisper' });
    whisperText.setAttribute('aria-label', `a thought to whisper to ${agent.name}`);
    const whisper = el(
      'form',
      {
        className: 'op-form whisper-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const text = whisperText.value.trim();
          if (!text) return;
          this.connection.send('whisper', { agentId: agent.id, text });
          whisperText.value = '';
          this.note.textContent = 'whispering…';
          this.note.hidden = false;
        },
      },
      whisperText,
      el('button', { type: 'submit', textContent: 'Whisper' }),
    );
    const remove = el('button', {
      type: 'button',
      className: 'link remove-agent',
      textContent: `remove ${first} from town`,
      onclick: () => {
        if (!window.confirm(`Remove ${agent.name} from the town? (Their memories stay in the world file.)`)) return;
        this.connection.send('agent', { op: 'remove', agentId: agent.id });
      },
    });
    this.root = el('div', { className: 'operator' }, interview, whisper, this.note, this.answer, remove);
  }

  showAnswer(question: string, answer: string): void {
    this.answer.replaceChildren(el('strong', { textContent: `Q: ${question}` }), el('p', { className: 'interview-answer', textContent: answer }));
    this.answer.hidden = false;
  }

  whispered(): void {
    this.note.textContent = 'whispered: it is now one of their memories';
  }
}

/** Whether a part of the panel holds the focus or typed text: then a refresh leaves it alone. */
function holdsInput(element: HTMLElement): boolean {
  const focused = focusedField();
  if (focused && element.contains(focused)) return true;
  return [...element.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].some((f) => f.value !== '');
}

const pct = (x: number) => x.toFixed(2);

function memoryTable(memories: InspectedMemory[]): HTMLElement {
  const table = el('table', { className: 'memories' });
  table.append(
    el(
      'tr',
      {},
      el('th', { textContent: 'memory' }),
      el('th', { textContent: 'rec', title: 'recency' }),
      el('th', { textContent: 'imp', title: 'importance' }),
      el('th', { textContent: 'rel', title: 'relevance' }),
    ),
  );
  for (const m of memories)
    table.append(
      el(
        'tr',
        { title: `${m.kind} · ${formatGameTime(m.createdGameMs)} · importance ${m.importance}` },
        el('td', { textContent: m.description }),
        el('td', { textContent: m.scores ? pct(m.scores.recency) : '–' }),
        el('td', { textContent: m.scores ? pct(m.scores.importance) : String(m.importance) }),
        el('td', { textContent: m.scores ? pct(m.scores.relevance) : '–' }),
      ),
    );
  return table;
}
