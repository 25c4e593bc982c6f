// Events as worlds recorded before event format 2 wrote them. Such a world replays with less detail:
// its walks and actions are there, but agents added after a snapshot lack their full description and
// warnings were logged as actions. Each event is checked before the fold trusts it.
import type { LoggedEvent } from '../protocol/events';
import { GAME_MS_PER_HOUR } from '../protocol/time';

/** The event in today's shape, or null when it carries nothing the fold can use. */
export function upgradeEvent(e: LoggedEvent): LoggedEvent | null {
  const d = (e.data ?? {}) as Record<string, unknown>;
  switch (e.kind) {
    case 'agent.added':
      return d.spec && typeof d.tile === 'number' && d.current ? e : null;
    case 'agent.action':
      if ('warning' in d || typeof d.description !== 'string') return null;
      return typeof d.asleep === 'boolean' ? e : ({ ...e, data: { ...(d as object), asleep: d.description === 'sleeping' } } as LoggedEvent);
    case 'agent.move':
      return 'warning' in d || !Array.isArray(d.path) ? null : e;
    case 'world.event':
      return typeof d.durationGameMs === 'number' ? e : ({ ...e, data: { ...(d as object), durationGameMs: 3 * GAME_MS_PER_HOUR } } as LoggedEvent);
    default:
      return e;
  }
}
