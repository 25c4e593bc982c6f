// Defect patterns in what the offline mind writes: each a text a reader would stop at. scanWorldDefects
// reads a world's utterances, memories, reflections, statuses, plans and interview answers and returns
// every hit with where it was; a believable run has none (tests/integration/cognitionDay.test.ts).
import type { WorldDb } from '../store/WorldDb';

export interface DefectHit {
  pattern: string;
  /** Where: 'utterance', 'memory', 'reflection', 'status', 'plan', 'interview'. */
  where: string;
  text: string;
}

const KIN = 'husband|wife|son|daughter|brother|sister|mother|father|partner';
/** Single texts: [name, pattern]. */
export const TEXT_DEFECTS: Array<[string, RegExp]> = [
  ['doubled prefix', /(\b[A-Z][\w' ]{3,60}:)\s+\1/],
  ['first person with a third-person verb ("I meets")', /\bI (meets|wants|needs|has|is|does|runs|owns|goes|says|thinks|likes|knows|loves|works|lives)\b/],
  ['"me" as a subject ("me is")', /\b(?:that|because|and) me (is|was|has|wants|am)\b|^me (is|was|has|wants)\b/i],
  ['"their <kin>" where the person is named', new RegExp(`\\b[A-Z][a-z]+ [A-Z][a-z]+, their (${KIN})\\b`)],
  ['a place said twice', /\bat (\w[\w ]*) at \1\b/],
  ['a contraction on a name ("Rivera\'ll")', /\b[A-Z][a-z]+'ll be\b/],
];

/** Sympathy said straight after good news. */
const SYMPATHY = /^(Oh no|That's a shame|I'm sorry to hear)/;
const GOOD_NEWS = /\b(party|celebrat\w*|wedding|birthday|concert|festival|invit\w*|engaged|promot\w*)\b/i;
const BAD_NEWS = /\b(worried|closed|fire|flood\w*|accident|died|death|hospital|cancel\w*|fight|sick|ill|hurt|broke\w*)\b/i;

/** Objects an action may name, and the object kinds (address's last part, without its number) that fit it. */
const ACTION_OBJECTS: Array<[RegExp, RegExp]> = [
  [/\bflower beds?\b|\bwatering\b/, /flower bed|garden|planter/],
  [/\bfountain\b/, /fountain/],
  [/\bstove\b|\bcooking\b/, /stove|kitchen|oven/],
  [/\bpiano\b/, /piano/],
  [/\beasel\b|\bpainting at\b/, /easel/],
  [/\bbookshelf\b/, /bookshelf|shelf/],
  [/\bshower\b/, /shower|bathroom/],
  [/\bbar counter\b|\bpouring drinks\b/, /bar/],
];

export function textDefects(text: string, where: string): DefectHit[] {
  return TEXT_DEFECTS.filter(([, re]) => re.test(text)).map(([pattern]) => ({ pattern, where, text }));
}

/** A line of sympathy answering good news (the line before it). */
export function sympathyToGoodNews(previous: string, line: string): boolean {
  const reply = line.replace(/^[^.!?]*?\b(Oh no|That's a shame|I'm sorry to hear)/, '$1');
  return SYMPATHY.test(reply) && GOOD_NEWS.test(previous) && !BAD_NEWS.test(previous);
}

/** An action that names an object at an address whose object does not fit it ("watering the flower beds" at a fountain). */
export function objectMismatch(description: string, address: string): boolean {
  const parts = address.split(': ');
  if (parts.length < 3) return false;
  const object = parts[parts.length - 1].toLowerCase().replace(/ \d+$/, '');
  return ACTION_OBJECTS.some(([action, fits]) => action.test(description.toLowerCase()) && !fits.test(object));
}

/** Every defect in a world's texts. */
export function scanWorldDefects(db: WorldDb): DefectHit[] {
  const hits: DefectHit[] = [];
  const lastLine = new Map<number, string>();
  const answers = new Map<string, Map<string, string>>();
  for (const e of db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000_000)) {
    if (e.kind === 'conversation.utterance') {
      hits.push(...textDefects(e.data.text, 'utterance'));
      const previous = lastLine.get(e.data.conversationId);
      if (previous !== undefined && sympathyToGoodNews(previous, e.data.text))
        hits.push({ pattern: 'sympathy to good news', where: 'utterance', text: `${previous} → ${e.data.text}` });
      lastLine.set(e.data.conversationId, e.data.text);
    } else if (e.kind === 'memory.created') hits.push(...textDefects(e.data.description, e.data.kind === 'thought' ? 'reflection' : 'memory'));
    else if (e.kind === 'status.revised') hits.push(...textDefects(e.data.currently, 'status'));
    else if (e.kind === 'plan.made')
      for (const a of e.data.actions) {
        hits.push(...textDefects(a.description, 'plan'));
        if (objectMismatch(a.description, a.address))
          hits.push({ pattern: 'an object that does not fit the action', where: 'plan', text: `${a.description} @ ${a.address}` });
      }
    else if (e.kind === 'operator.action' && e.data.action === 'interview' && e.data.agentId && e.data.answer) {
      hits.push(...textDefects(e.data.answer, 'interview'));
      const mine = answers.get(e.data.agentId) ?? new Map<string, string>();
      const other = [...mine.entries()].find(([q, a]) => a === e.data.answer && q !== e.data.question);
      if (other)
        hits.push({ pattern: 'the same answer to different questions', where: 'interview', text: `${other[0]} / ${e.data.question}: ${e.data.answer}` });
      mine.set(e.data.question ?? '', e.data.answer);
      answers.set(e.data.agentId, mine);
    }
  }
  return hits;
}
