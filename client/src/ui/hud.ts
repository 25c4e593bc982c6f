// DOM panels over the canvas: the clock bar (date, time, speed, mind, role, operator controls) and
// the panel of the followed agent. Reads state; sends only operator controls, which the server checks.
import type { TownConnection } from '../net/townConnection';
import { nightAlpha } from './help';
import { formatClock, formatGameDate, minuteOfDay } from '@protocol/time';

const SPEEDS: Array<[string, number]> = [
  ['1×', 60],
  ['2×', 120],
  ['5×', 300],
  ['10×', 600],
  ['max', 3600],
];

export class Hud {
  private shownAgent: string | null = null;
  private lastRender = 0;
  private findHandler: (id: string) => void = () => undefined;
  private readonly el = {
    world: document.getElementById('hud-world')!,
    clock: document.getElementById('hud-clock')!,
    speed: document.getElementById('hud-speed')!,
    mind: document.getElementById('hud-mind')!,
    agents: document.getElementById('hud-agents')!,
    role: document.getElementById('hud-role')!,
    controls: document.getElementById('hud-controls')!,
  };

  constructor(private readonly connection: TownConnection) {
    this.buildControls();
  }

  onFind(handler: (id: string) => void): void {
    this.findHandler = handler;
  }

  showAgent(id: string | null): void {
    this.shownAgent = id;
    this.onShowAgent(id);
  }

  /** Set by main: the inspector opens for the agent shown. */
  onShowAgent: (id: string | null) => void = () => undefined;

  get shown(): string | null {
    return this.shownAgent;
  }

  update(gameNow: number): void {
    const t = performance.now();
    if (t - this.lastRender < 200) return;
    this.lastRender = t;
    const s = this.connection.state;
    this.el.world.textContent = s.world || 'Smalltown';
    this.el.clock.textContent = `${formatGameDate(gameNow)} · ${formatClock(minuteOfDay(gameNow))}`;
    const held = s.paused ? 'paused' : s.holdReason ? `waiting (${s.holdReason})` : '';
    this.el.speed.textContent = held || `${Math.round((s.rate / 60) * 10) / 10}×`;
    this.el.speed.classList.toggle('held', held !== '');
    this.el.mind.textContent = `mind: ${s.mind}`;
    this.el.agents.textContent = `${s.agents.size} agents`;
    this.el.role.textContent = this.connection.role === 'operator' ? 'operator' : 'spectator';
    this.el.controls.hidden = this.connection.role !== 'operator';
    for (const b of this.el.controls.querySelectorAll<HTMLButtonElement>('button[data-rate]')) b.setAttribute('aria-pressed', String(Number(b.dataset.rate) === s.rate));
    const pause = this.el.controls.querySelector<HTMLButtonElement>('button[data-op="pause"]');
    if (pause) pause.textContent = s.paused ? '▶ resume' : '⏸ pause';
    const step = this.el.controls.querySelector<HTMLButtonElement>('button[data-op="step"]');
    if (step) step.hidden = !s.paused;
    (document.getElementById('tint') as HTMLElement).style.opacity = String(nightAlpha(gameNow));
    (document.getElementById('hud-token') as HTMLElement).hidden = this.connection.role === 'operator';
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
    (document.getElementById('hud-find') as HTMLInputElement | null)?.focus();
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
    document.getElementById('hud-token')?.addEventListener('click', () => {
      const token = window.prompt('Operator token (printed when the server starts):');
      if (!token) return;
      const url = new URL(location.href);
      url.searchParams.set('token', token.trim());
      location.href = url.toString();
    });
    const find = document.getElementById('hud-find') as HTMLInputElement | null;
    find?.addEventListener('change', () => {
      const q = find.value.trim().toLowerCase();
      let match: string | null = null;
      this.connection.state.agents.forEach((a, id) => {
        if (!match && a.name.toLowerCase().includes(q)) match = id;
      });
      if (match) this.findHandler(match);
    });
  }
}
