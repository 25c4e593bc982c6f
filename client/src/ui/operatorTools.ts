// The operator's tools: inject a world event at a place of the place tree, add an agent from a
// persona file that is not in town (GET /api/personas), and a link to the persona editor (/personas). Both send room messages the server checks;
// the town feed shows what happened, and refusals come back as `error` messages shown here.
import type { TownConnection } from '../net/townConnection';
import type { AddablePersona } from '@protocol/api';
import type { PlaceTree } from '@protocol/places';
import type { ErrorReply } from '@protocol/messages';
import { MAX_TEXT_CHARS } from '@protocol/constants';
import { chosenWorld, fetchAddablePersonas } from '../net/api';
import { personaEditorUrl } from '../net/token';
import { el } from './dom';

export class OperatorTools {
  private readonly status = el('p', { className: 'tools-status', role: 'status' });
  private readonly eventText = el('input', { type: 'text', name: 'event', maxLength: MAX_TEXT_CHARS, placeholder: 'what happens, e.g. “a fire alarm”' });
  private readonly place = el('select', { name: 'place' });
  private readonly persona = el('select', { name: 'persona' });
  private readonly addButton = el('button', { type: 'submit', textContent: 'Add to town' });
  private readonly personaNote = el('p', { className: 'muted persona-note' });
  private personas: AddablePersona[] = [];
  private agentCount = -1;

  constructor(
    private readonly connection: TownConnection,
    private readonly root: HTMLElement,
    places: PlaceTree,
  ) {
    this.eventText.setAttribute('aria-label', 'the event');
    this.place.setAttribute('aria-label', 'where it happens');
    this.persona.setAttribute('aria-label', 'persona file');
    this.place.append(el('option', { value: '', textContent: `everywhere in ${places.world}` }));
    for (const sector of places.sectors) {
      const group = el('optgroup', { label: sector.name });
      group.append(el('option', { value: sector.name, textContent: `${sector.name} (all of it)` }));
      for (const arena of sector.arenas) group.append(el('option', { value: arena.address, textContent: `${sector.name}: ${arena.name}` }));
      this.place.append(group);
    }
    const inject = el(
      'form',
      {
        className: 'inject-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const text = this.eventText.value.trim();
          if (!text) return this.say('Describe the event first.');
          const arena = this.place.value;
          this.connection.send('inject', arena ? { text, arena } : { text });
          this.eventText.value = '';
          this.say(`Sent: “${text}” ${arena ? `at ${arena}` : 'everywhere'}. Agents there will notice it.`);
        },
      },
      el('label', {}, 'Event', this.eventText),
      el('label', {}, 'Where', this.place),
      el('button', { type: 'submit', textContent: 'Inject event' }),
    );
    const add = el(
      'form',
      {
        className: 'add-agent-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const id = this.persona.value;
          if (!id) return;
          this.connection.send('agent', { op: 'add', personaId: id });
          this.say(`Adding ${this.persona.selectedOptions[0]?.textContent ?? id}…`);
        },
      },
      el('label', {}, 'Persona file', this.persona),
      this.addButton,
      el('button', { type: 'button', className: 'link', textContent: '↻ reread the folder', onclick: () => void this.refreshPersonas() }),
    );
    this.persona.addEventListener('change', () => this.describePersona());
    const close = el('button', { type: 'button', className: 'close', textContent: '×', title: 'close (Esc)', onclick: () => this.close() });
    root.replaceChildren(
      el('header', {}, el('h2', { textContent: 'Operator tools' }), close),
      el('h3', { textContent: 'Inject an event' }),
      inject,
      el('h3', { textContent: 'Add an agent' }),
      add,
      this.personaNote,
      el(
        'p',
        {},
        el('a', {
          className: 'persona-editor-link',
          href: personaEditorUrl(chosenWorld()),
          target: '_blank',
          textContent: '✎ Persona editor',
          title: 'write, check, preview and add personas, or edit and delete their files (opens a new tab)',
        }),
        ' — write a new persona or edit one, and add it to the town.',
      ),
      this.status,
    );
    connection.on('error', (m) => {
      const e = m as ErrorReply;
      if (e.type === 'inject' || e.type === 'agent') this.say(`Refused: ${e.message}`);
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }

  open(): void {
    if (this.connection.role !== 'operator') return;
    this.root.hidden = false;
    void this.refreshPersonas();
  }

  /** Closes the tools; false when they were not open. */
  close(): boolean {
    if (!this.isOpen) return false;
    this.root.hidden = true;
    return true;
  }

  /** Rereads the persona folder when an agent came or went while the tools are open. */
  tick(): void {
    const count = this.connection.state.agents.size;
    if (count === this.agentCount) return;
    this.agentCount = count;
    if (this.isOpen) void this.refreshPersonas();
  }

  private async refreshPersonas(): Promise<void> {
    try {
      this.personas = await fetchAddablePersonas();
    } catch (error) {
      this.personas = [];
      this.say(`Could not list the persona files: ${error instanceof Error ? error.message : String(error)}`);
    }
    const chosen = this.persona.value;
    const option = (p: AddablePersona) =>
      el('option', { value: p.id, textContent: `${p.name ?? p.id} (${p.file.split(/[\\/]/).pop()})`, disabled: p.problems.length > 0 });
    this.persona.replaceChildren(...this.personas.map(option));
    const first = this.personas.find((p) => p.id === chosen && !p.problems.length) ?? this.personas.find((p) => !p.problems.length);
    if (first) this.persona.value = first.id;
    this.describePersona();
  }

  private describePersona(): void {
    const addable = this.personas.filter((p) => !p.problems.length);
    this.addButton.disabled = addable.length === 0;
    this.persona.disabled = this.personas.length === 0;
    const broken = this.personas.filter((p) => p.problems.length);
    const lines: string[] = [];
    if (!this.personas.length) lines.push('Every persona file in the folder is in town. Write a new one (see personas/README.md) and reread the folder.');
    for (const p of broken) lines.push(`${p.id}.yaml cannot be added: ${p.problems.join('; ')}`);
    this.personaNote.textContent = lines.join('\n');
  }

  private say(text: string): void {
    this.status.textContent = text;
  }
}
