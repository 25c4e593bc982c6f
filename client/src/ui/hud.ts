// The clock bar over the canvas: world, date and time, speed, mind, role, the find box, the view
// buttons (auto-follow, whole town), and for operators the clock controls and the tools toggle.
// While replaying it says so ("Replay · Sat 14 Feb 2026 · 17:00") and the operator's controls, which
// change the live town, are disabled. Reads state; sends only operator controls, which the server checks.
import type { ConnectionHub } from '../net/connectionHub';
import { nightAlpha } from './help';
import { formatClock, formatGameDate, minuteOfDay } from '@protocol/time';
import { setText } from './dom';

/** The find box's names are gathered again at least this often (ms), and whenever the count of agents changes. */
const NAMES_REFRESH_MS = 5000;
const SPEEDS: Array<[string, number]> = [
  ['1×', 60],
  ['2×', 120],
  ['5×', 300],
  ['10×', 600],
  ['max', 3600],
];

/** What the bar's view buttons drive: the town camera (scenes/Town.ts). */
export interface ViewControls {
  autoFollow(): boolean;
  setAutoFollow(on: boolean): void;
  showWholeTown(): void;
}

export class Hud {
  private lastRender = 0;
  private findHandler: (id: string) => void = () => undefined;
  private view: ViewControls | null = null;
  private agentNames = '';
  private namesCount = -1;
  private namesMs = 0;
  private readonly el = {
    world: document.getElementById('hud-world')!,
    clock: document.getElementById('hud-clock')!,
    speed: document.getElementById('hud-speed')!,
    mind: document.getElementById('hud-mind')!,
    agents: document.getElementById('hud-agents')!,
    role: document.getElementById('hud-role')!,
    controls: document.getElementById('hud-controls')!,
    find: document.getElementById('hud-find') as HTMLInputElement,
    names: document.getElementById('hud-agent-names') as HTMLDataListElement,
    auto: document.getElementById('hud-auto') as HTMLButtonElement,
    whole: document.getElementById('hud-whole') as HTMLButtonElement,
    token: document.getElementById('hud-token') as HTMLButtonElement,
    status: document.getElementById('status')!,
  };

  constructor(private readonly connection: ConnectionHub) {
    this.buildControls();
  }

  /** Set by main: what the 🔑 button does (asks for a token). */
  onTokenButton: () => void = () => undefined;
  /** Set by main: what the 🛠 button does (opens the operator tools). */
  onToolsButton: () => void = () => undefined;

  onFind(handler: (id: string) => void): void {
    this.findHandler = handler;
  }

  bindView(view: ViewControls): void {
    this.view = view;
  }

  /** A line in the status bar at the bottom (errors, "no agent called …"). */
  say(text: string): void {
    this.el.status.textContent = text;
  }

  update(gameNow: number): void {
    const t = performance.now();
    if (t - this.lastRender < 200) return;
    this.lastRender = t;
    const s = this.connection.state;
    const replay = this.connection.mode === 'replay';
    // The live town's role, also while replaying (when its controls are shown disabled).
    const operator = this.connection.liveOperator;
    // A replay names the world file it plays (a headless run, a backup), not the map's name for its town.
    setText(this.el.world, (replay && s.replayWorld) || s.world || 'Smalltown');
    const when = `${formatGameDate(gameNow)} · ${formatClock(minuteOfDay(gameNow))}`;
    setText(this.el.clock, replay ? `Replay · ${when}` : when);
    this.el.clock.classList.toggle('replay', replay);
    const rate = (r: number) => `${Math.round((r / 60) * 10) / 10}×`;
    const waiting = s.storageProblem
      ? `paused: the world file refuses writes (${s.storageProblem})`
      : s.holdReason.split(',').includes('starting')
        ? "starting: writing the residents' first memories"
        : `waiting (${s.holdReason})`;
    const held = replay ? (s.replayRate > 0 ? '' : 'paused') : s.paused ? 'paused' : s.holdReason ? waiting : '';
    setText(this.el.speed, held || rate(replay ? s.replayRate : s.rate));
    this.el.speed.classList.toggle('held', held !== '');
    setText(this.el.mind, `mind: ${s.mind}`);
    setText(this.el.agents, `${s.agents.size} agents`);
    setText(this.el.role, operator ? 'operator' : 'spectator');
    // The words give way in a narrow bar (styles.css): their whole text is their tooltip.
    for (const e of [this.el.world, this.el.mind, this.el.agents, this.el.role]) if (e.title !== e.textContent) e.title = e.textContent ?? '';
    this.el.controls.hidden = !operator;
    this.el.controls.title = replay ? 'replaying: these change the live town; go back to live to use them' : '';
    for (const b of this.el.controls.querySelectorAll('button')) b.disabled = replay;
    this.el.token.hidden = operator;
    for (const b of this.el.controls.querySelectorAll<HTMLButtonElement>('button[data-rate]'))
      b.setAttribute('aria-pressed', String(Number(b.dataset.rate) === s.rate));
    const pause = this.el.controls.querySelector<HTMLButtonElement>('button[data-op="pause"]');
    if (pause) setText(pause, s.paused ? '▶ resume' : '⏸ pause');
    const step = this.el.controls.querySelector<HTMLButtonElement>('button[data-op="step"]');
    if (step) step.hidden = !s.paused;
    if (this.view) this.el.auto.setAttribute('aria-pressed', String(this.view.autoFollow()));
    const tint = (document.getElementById('tint') as HTMLElement).style;
    const alpha = String(nightAlpha(gameNow));
    if (tint.opacity !== alpha) tint.opacity = alpha;
    // The find box's names: sorting ten thousand took a frame, so only when someone came or left, or every few seconds (a rename).
    if (s.agents.size === this.namesCount && t - this.namesMs < NAMES_REFRESH_MS) return;
    this.namesCount = s.agents.size;
    this.namesMs = t;
    const names: string[] = [];
    s.agents.forEach((a) => names.push(a.name));
    const joined = names.sort().join('\n');
    if (joined !== this.agentNames) {
      this.agentNames = joined;
      this.el.names.replaceChildren(...names.map((n) => Object.assign(document.createElement('option'), { value: n })));
    }
  }

  /** Speed buttons and shortcuts send the same messages; the server decides whether they count. */
  setRate(index: number): void {
    const speed = SPEEDS[index];
    if (speed) this.connection.send('control', { op: 'speed', rate: speed[1] });
  }

  togglePause(): void {
    this.connection.send('control', { op: this.connection.state.paused ? 'resume' : 'pause' });
  }

  focusFind(): void {
    this.el.find.focus();
    this.el.find.select();
  }

  private buildControls(): void {
    const c = this.el.controls;
    const button = (label: string, onClick: () => void, data: Record<string, string> = {}) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      Object.assign(b.dataset, data);
      b.addEventListener('click', onClick);
      c.append(b);
      return b;
    };
    button('⏸ pause', () => this.togglePause(), { op: 'pause' });
    button('⏭ 15 min', () => this.connection.send('control', { op: 'step', gameMinutes: 15 }), { op: 'step' });
    for (const [label, rate] of SPEEDS) button(label, () => this.connection.send('control', { op: 'speed', rate }), { rate: String(rate) });
    button('🛠 tools', () => this.onToolsButton(), { op: 'tools' }).title = 'inject an event, add an agent (T)';
    this.el.token.addEventListener('click', () => this.onTokenButton());
    this.el.auto.addEventListener('click', () => this.view?.setAutoFollow(!this.view.autoFollow()));
    this.el.whole.addEventListener('click', () => this.view?.showWholeTown());
    // Enter finds; focus then goes back to the page, so the shortcuts work again.
    this.el.find.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      this.find(this.el.find.value);
      this.el.find.blur();
    });
  }

  private find(query: string): void {
    const q = query.trim().toLowerCase();
    if (!q) return;
    let match: string | null = null;
    this.connection.state.agents.forEach((a, id) => {
      if (!match && (a.name.toLowerCase().includes(q) || id === q)) match = id;
    });
    if (match) {
      this.say('');
      this.findHandler(match);
    } else this.say(`No agent called “${query.trim()}” in town.`);
  }
}
