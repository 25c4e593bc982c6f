// What the persona will be: its look, drawn exactly as the town draws it (the same template repainted
// by the same code, view/characterTextures.ts), and the day plan its mind would make (from the server:
// the offline mind at once, the LLM when asked for, with what it cost).
import type { PlanPreview } from '@protocol/personas';
import { formatClock } from '@protocol/time';
import { DIRECTIONS } from '@protocol/movement';
import { FRAME_PX, paintLook, type Look } from '../view/characterTextures';
import { el } from '../ui/dom';

const TEMPLATE_URL = '/assets/characters-base.png';
const ZOOM = 3;

export class LookPreview {
  readonly canvas = el('canvas', { className: 'look-preview', width: FRAME_PX * ZOOM * (DIRECTIONS.length + 1), height: FRAME_PX * ZOOM });
  private template: ImageData | null = null;
  private sheet: HTMLCanvasElement | null = null;
  private frame = 0;
  private look: Look | null = null;

  constructor() {
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'how the persona is drawn in town');
    const image = new Image();
    image.onload = () => {
      const c = el('canvas', { width: image.width, height: image.height });
      const ctx = c.getContext('2d', { willReadFrequently: true })!;
      ctx.drawImage(image, 0, 0);
      this.template = ctx.getImageData(0, 0, image.width, image.height);
      if (this.look) this.show(this.look);
    };
    image.src = TEMPLATE_URL;
    // The walk cycle facing down, at the town's 8 frames a second.
    window.setInterval(() => {
      this.frame = (this.frame + 1) % 4;
      this.draw();
    }, 125);
  }

  /** Repaints the template in these colours; colours that are not "#rrggbb" keep the template's marker colour. */
  show(look: Look): void {
    this.look = look;
    if (!this.template) return;
    const valid = (c: string) => /^#[0-9a-fA-F]{6}$/.test(c);
    const image = new ImageData(new Uint8ClampedArray(this.template.data), this.template.width, this.template.height);
    paintLook(image.data, {
      skin: valid(look.skin) ? look.skin : '#ff0000',
      hair: valid(look.hair) ? look.hair : '#00ff00',
      shirt: valid(look.shirt) ? look.shirt : '#0000ff',
      pants: valid(look.pants) ? look.pants : '#ffff00',
    });
    this.sheet ??= el('canvas', { width: image.width, height: image.height });
    this.sheet.getContext('2d')!.putImageData(image, 0, 0);
    this.draw();
  }

  private draw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.sheet) return;
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const size = FRAME_PX * ZOOM;
    // Standing, each way; then walking towards the viewer.
    DIRECTIONS.forEach((_, row) => ctx.drawImage(this.sheet!, 0, row * FRAME_PX, FRAME_PX, FRAME_PX, row * size, 0, size, size));
    ctx.drawImage(this.sheet, this.frame * FRAME_PX, 0, FRAME_PX, FRAME_PX, DIRECTIONS.length * size, 0, size, size);
  }
}

/** A day plan as a list: broad strokes, then each action with its time, emoji and place. */
export function renderPlan(preview: PlanPreview): HTMLElement {
  const { plan } = preview;
  const cost = preview.cost;
  const head = el(
    'p',
    { className: 'plan-head' },
    el('strong', { textContent: preview.mind === 'llm' ? 'LLM plan' : 'Offline plan' }),
    ` for ${preview.date} (${preview.label})`,
  );
  const costLine = cost
    ? el('p', {
        className: 'plan-cost',
        textContent:
          `${cost.calls} call${cost.calls === 1 ? '' : 's'}, ${cost.promptTokens.toLocaleString('en')} ` +
          `+ ${cost.completionTokens.toLocaleString('en')} tokens, ` +
          `$${cost.usd.toFixed(4)}${cost.cachedCalls ? ` (${cost.cachedCalls} from the cache, free)` : ''}` +
          (cost.fallbacks ? `; ${cost.fallbacks} unusable answer${cost.fallbacks === 1 ? '' : 's'}, the offline plan stands in there` : ''),
      })
    : el('p', { className: 'plan-cost', textContent: 'The offline mind: no cost.' });
  const strokes = el('ol', { className: 'broad-strokes' }, ...plan.broadStrokes.map((s) => el('li', { textContent: s.replace(/^\d+\)\s*/, '') })));
  const actions = el(
    'ol',
    { className: 'plan-actions' },
    ...plan.actions.map((a) =>
      el(
        'li',
        {},
        el('span', { className: 'time', textContent: `${formatClock(a.startMinute % 1440)}–${formatClock((a.startMinute + a.durationMinutes) % 1440)}` }),
        ` ${a.emoji} ${a.description} `,
        el('span', { className: 'muted', textContent: `@ ${a.address}` }),
      ),
    ),
  );
  return el(
    'div',
    { className: `plan-preview plan-${preview.mind}` },
    head,
    costLine,
    el('h4', { textContent: 'In broad strokes' }),
    strokes,
    el('h4', { textContent: 'Hour by hour' }),
    actions,
  );
}
