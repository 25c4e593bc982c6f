// The inspector: everything about one agent, asked of the server with `inspect` (read-only for
// anyone) and refreshed while open; operators also get interview and whisper forms.
import type { TownConnection } from '../net/townConnection';
import type { AgentInspection, InspectedMemory, InspectReply } from '@protocol/inspection';
import { formatClock, formatGameTime } from '@protocol/time';

const REFRESH_MS = 3000;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

const pct = (x: number) => x.toFixed(2);

export class Inspector {
  private agentId: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private requestSeq = 0;
  private last: AgentInspection | null = null;
  private answer: { question: string; answer: string } | null = null;
  private openReflections = new Set<number>();

  constructor(
    private readonly connection: TownConnection,
    private readonly root: HTMLElement,
  ) {
    connection.on('inspect', (m) => {
      const data = m as InspectReply;
      if (data.id !== this.agentId || 'error' in data) return;
      this.last = data;
      this.render();
    });
    connection.on('interview', (m) => {
      const r = m as { agentId: string; question: string; answer: string };
      if (r.agentId !== this.agentId) return;
      this.answer = { question: r.question, answer: r.answer };
      this.render();
    });
  }

  get shown(): string | null {
    return this.agentId;
  }

  show(agentId: string | null): void {
    if (agentId === this.agentId) return;
    this.agentId = agentId;
    this.last = null;
    this.answer = null;
    this.openReflections.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.root.hidden = agentId === null;
    if (!agentId) return;
    this.request();
    this.timer = setInterval(() => this.request(), REFRESH_MS);
    this.render();
  }

  private request(): void {
    if (this.agentId) this.connection.send('inspect', { requestId: String(++this.requestSeq), agentId: this.agentId });
  }

  private render(): void {
    const id = this.agentId;
    if (!id) return;
    const live = this.connection.state.agents.get(id);
    const d = this.last;
    const head = el('header', {}, el('h2', { textContent: live?.name ?? id }), el('button', { type: 'button', className: 'close', textContent: '×', title: 'close (Esc)', onclick: () => this.onClose() }));
    const now = el('div', { className: 'action' }, `${live?.asleep ? '😴' : live?.emoji ?? ''} ${live?.action ?? ''}`);
    const place = el('div', { className: 'place' }, live?.place ?? '');
    const children: Node[] = [head, now, place];
    if (live?.speech) children.push(el('blockquote', { textContent: `“${live.speech}”` }));
    if (!d) {
      children.push(el('p', { className: 'muted', textContent: 'loading…' }));
      this.root.replaceChildren(...children);
      return;
    }
    children.push(
      el('p', { className: 'persona' }, `${d.age}, ${d.innate.join(', ')}. ${d.learned} `, el('em', { textContent: d.currently })),
      el('p', { className: 'muted', textContent: `home: ${d.home}${d.workplace ? ` · work: ${d.workplace}` : ''}` }),
    );
    if (this.connection.role === 'operator') children.push(this.operatorForms(d));
    if (d.plan) {
      const list = el('ol', { className: 'plan' });
      d.plan.actions.forEach((a, i) => {
        const li = el('li', { textContent: `${formatClock(a.startMinute)} ${a.emoji} ${a.description} @ ${a.address}` });
        if (i === d.plan!.currentIndex) {
          li.className = 'current';
          li.setAttribute('aria-current', 'step');
        }
        list.append(li);
      });
      children.push(section('Today\u2019s plan', el('p', { className: 'muted', textContent: d.plan.broadStrokes.join(' ') }), list));
    }
    children.push(section(`Memories, scored for “${d.focus}”`, memoryTable(d.relevant)));
    children.push(section('Recent memories', memoryTable(d.recent.slice(0, 12))));
    const refl = el('ul', { className: 'reflections' });
    for (const r of d.reflections) {
      const open = this.openReflections.has(r.id);
      const li = el('li', {}, el('button', { type: 'button', className: 'link', textContent: `💭 ${r.description}`, title: 'show the evidence', onclick: () => (open ? this.openReflections.delete(r.id) : this.openReflections.add(r.id), this.render()) }));
      if (open) li.append(el('ul', { className: 'evidence' }, ...(r.evidence ?? []).map((e) => el('li', { textContent: `#${e.id} ${e.description}` }))));
      refl.append(li);
    }
    if (d.reflections.length) children.push(section('Reflections', refl));
    if (d.relationships.length)
      children.push(section('Relationships', el('ul', {}, ...d.relationships.map((r) => el('li', { textContent: `${this.connection.state.agents.get(r.otherId)?.name ?? r.otherId} (${r.interactions}×): ${r.summary}` })))));
    queueMicrotask(() => this.root.querySelector('ol.plan li.current')?.scrollIntoView({ block: 'nearest' }));
    children.push(section('LLM use', el('p', { textContent: `${d.llm.calls} calls · ${(d.llm.promptTokens + d.llm.completionTokens).toLocaleString('en')} tokens · $${d.llm.costUsd.toFixed(4)}` })));
    this.root.replaceChildren(...children);
  }

  onClose: () => void = () => this.show(null);

  private operatorForms(d: AgentInspection): Node {
    const question = el('input', { type: 'text', placeholder: `ask ${d.name.split(' ')[0]} something…`, maxLength: 500, name: 'question' });
    const interview = el('form', { className: 'op-form', onsubmit: (e: Event) => {
      e.preventDefault();
      if (!question.value.trim()) return;
      this.answer = { question: question.value, answer: '…' };
      this.connection.send('interview', { requestId: String(++this.requestSeq), agentId: d.id, question: question.value.trim() });
      this.render();
    } }, question, el('button', { type: 'submit', textContent: 'Interview' }));
    const whisperText = el('input', { type: 'text', placeholder: 'whisper a thought…', maxLength: 500, name: 'whisper' });
    const whisper = el('form', { className: 'op-form', onsubmit: (e: Event) => {
      e.preventDefault();
      if (!whisperText.value.trim()) return;
      this.connection.send('whisper', { agentId: d.id, text: whisperText.value.trim() });
      whisperText.value = '';
    } }, whisperText, el('button', { type: 'submit', textContent: 'Whisper' }));
    const remove = el('button', { type: 'button', className: 'link', textContent: `remove ${d.name.split(' ')[0]} from town`, onclick: () => {
      if (window.confirm(`Remove ${d.name} from the town? (Their memories stay in the world file.)`)) this.connection.send('agent', { op: 'remove', agentId: d.id });
    } });
    const box = el('div', { className: 'operator' }, interview, whisper, remove);
    if (this.answer) box.append(el('div', { className: 'answer' }, el('strong', { textContent: `Q: ${this.answer.question}` }), el('p', { className: 'interview-answer', textContent: this.answer.answer })));
    return box;
  }
}

function section(title: string, ...content: Node[]): HTMLElement {
  return el('section', {}, el('h3', { textContent: title }), ...content);
}

function memoryTable(memories: InspectedMemory[]): HTMLElement {
  const table = el('table', { className: 'memories' });
  table.append(el('tr', {}, el('th', { textContent: 'memory' }), el('th', { textContent: 'rec', title: 'recency' }), el('th', { textContent: 'imp', title: 'importance' }), el('th', { textContent: 'rel', title: 'relevance' })));
  for (const m of memories)
    table.append(
      el('tr', { title: `${m.kind} · ${formatGameTime(m.createdGameMs)} · importance ${m.importance}` },
        el('td', { textContent: m.description }),
        el('td', { textContent: m.scores ? pct(m.scores.recency) : '–' }),
        el('td', { textContent: m.scores ? pct(m.scores.importance) : String(m.importance) }),
        el('td', { textContent: m.scores ? pct(m.scores.relevance) : '–' })),
    );
  return table;
}
