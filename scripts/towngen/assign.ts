// Who goes where, once the town is laid out: every workplace gets staff first, then each worker takes
// the nearest job with a free place; pupils go to the nearest school with room, students to a college.
import { Rng } from '../../server/src/sim/rng';
import { PUPILS_PER_CLASSROOM } from './tables';
import type { Job } from './tables';
import type { Person, Population, Venue } from './population';
import type { Spot, TownLayout } from './layout';

export interface Assignment {
  /** The venue and arena each person spends the working (or school) day in, by person index; null: at home or retired. */
  placeOf: Array<{ venue: Venue; room: string; job: Job | null } | null>;
}

export function distance(a: Spot, b: Spot): number {
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

export function assignPlaces(pop: Population, layout: TownLayout, seed: number): Assignment {
  const rng = Rng.fromKey(seed, 'assign');
  const homeSpot = (p: Person) => layout.spots.get(layout.homes[p.household])!;
  const venueSpot = (v: Venue) => layout.spots.get(v.sector)!;
  const placeOf: Assignment['placeOf'] = pop.people.map(() => null);

  // Jobs: one free place per slot of each job.
  const free: Array<{ venue: Venue; job: Job }> = [];
  for (const venue of pop.venues) for (const job of venue.jobs) for (let i = 0; i < job.slots; i++) free.push({ venue, job });
  const workers = rng.shuffle(pop.people.filter((p) => p.role === 'worker'));
  const take = (p: Person, k: number) => {
    const [slot] = free.splice(k, 1);
    placeOf[p.index] = { venue: slot.venue, room: slot.job.room, job: slot.job };
  };
  // Every venue gets its first member of staff: the nearest worker still without a job.
  for (const venue of rng.shuffle(pop.venues)) {
    const unplaced = workers.filter((w) => !placeOf[w.index]);
    if (unplaced.length === 0) break;
    let best = unplaced[0];
    for (const w of unplaced) if (distance(homeSpot(w), venueSpot(venue)) < distance(homeSpot(best), venueSpot(venue))) best = w;
    take(
      best,
      free.findIndex((s) => s.venue === venue),
    );
  }
  // Everyone else: the nearest free place.
  for (const w of workers) {
    if (placeOf[w.index] || free.length === 0) continue;
    let k = 0;
    for (let i = 1; i < free.length; i++) if (distance(homeSpot(w), venueSpot(free[i].venue)) < distance(homeSpot(w), venueSpot(free[k].venue))) k = i;
    take(w, k);
  }
  for (const w of workers) if (!placeOf[w.index]) w.role = 'home';

  // Pupils: the nearest school with a free desk, classrooms filled in turn; students: the nearest college.
  const seats = new Map<Venue, number>();
  const nearestWithRoom = (p: Person, kind: 'school' | 'college', capacity: number) => {
    let best: Venue | null = null;
    for (const v of pop.venues)
      if (v.kind === kind && (seats.get(v) ?? 0) < capacity && (!best || distance(homeSpot(p), venueSpot(v)) < distance(homeSpot(p), venueSpot(best))))
        best = v;
    // Every school full (a cut household can tip the count): the nearest one anyway.
    if (!best)
      for (const v of pop.venues) if (v.kind === kind && (!best || distance(homeSpot(p), venueSpot(v)) < distance(homeSpot(p), venueSpot(best)))) best = v;
    return best;
  };
  for (const p of pop.people) {
    if (p.role !== 'child' && p.role !== 'college') continue;
    const kind = p.role === 'child' ? 'school' : 'college';
    const venue = nearestWithRoom(p, kind, kind === 'school' ? 2 * PUPILS_PER_CLASSROOM : Infinity);
    if (!venue) continue;
    const n = seats.get(venue) ?? 0;
    seats.set(venue, n + 1);
    placeOf[p.index] = { venue, room: kind === 'school' ? (n % 2 === 0 ? 'classroom' : 'classroom 2') : 'lecture hall', job: null };
  }
  return { placeOf };
}
