// The interview grader must be able to fail: answers grounded in the agent's own records pass, and the
// same answers graded against another agent's records, against records shuffled across the town, or a
// generic sentence graded against the agent's own records, do not.
import { describe, expect, it } from 'vitest';
import {
  GENERIC_ANSWERS,
  InterviewGrader,
  gradeInterviews,
  otherAgentRecords,
  shuffledRecords,
  type AgentRecord,
  type InterviewCategory,
} from '../../server/src/analysis/believability';
import type { Memory } from '../../server/src/store/types';
import type { Persona } from '../../server/src/world/persona';

const PEOPLE = [
  ['ana', 'Ana Silva', 34, 'the baker of the village', 'baking sourdough loaves before dawn', 'Silva Bakery', ['cheerful', 'early riser'], 'bruno'],
  [
    'bruno',
    'Bruno Keller',
    51,
    'the blacksmith who repairs tools and gates',
    'forging a new iron gate for the chapel',
    'Keller Forge',
    ['gruff', 'honest'],
    'cora',
  ],
  ['cora', 'Cora Lind', 27, 'a nurse at the clinic', 'studying for the midwife examination', 'Hillside Clinic', ['calm', 'careful'], 'dev'],
  ['dev', 'Dev Patel', 42, 'the postman who cycles every lane', 'training for the regional cycling race', 'Post Office', ['talkative', 'curious'], 'ana'],
  ['eli', 'Eli Novak', 66, 'a retired teacher who keeps bees', 'collecting honey from the orchard hives', 'Novak Cottage', ['patient', 'wry'], 'ana'],
] as const;

/** The news everybody heard, so it grounds no one in particular. */
const TOWN_NEWS = 'The harvest fair is on Saturday at the market square.';

function records(): Map<string, AgentRecord> {
  const names = PEOPLE.map((p) => p[1]);
  let id = 1;
  const memory = (agentId: string, description: string, kind: Memory['kind'] = 'observation'): Memory =>
    ({ id: id++, agentId, kind, description, createdGameMs: 0, lastAccessedGameMs: 0, importance: 5, triple: null, evidenceIds: [] }) as unknown as Memory;
  return new Map(
    PEOPLE.map(([aid, name, age, learned, currently, place, innate, friend]) => {
      const friendName = PEOPLE.find((p) => p[0] === friend)![1];
      const persona = {
        id: aid,
        name,
        age,
        learned: `${name} is ${learned}.`,
        currently: `${name} is ${currently}.`,
        lifestyle: 'Works by day.',
        home: place,
        workplace: place,
        innate: [...innate],
        relationships: { [friend]: `${friendName} is an old friend from school.` },
      } as unknown as Persona;
      return [
        aid,
        {
          persona,
          memories: [
            memory(aid, TOWN_NEWS),
            memory(aid, `${name} is ${currently}.`),
            memory(
              aid,
              `${friendName} said the ${learned.split(' ').slice(-1)[0]} needs ${aid === 'cora' ? 'bandages' : 'paint'} (heard from ${friendName})`,
              'chat',
            ),
            memory(aid, `${name} realised that ${currently} takes patience.`, 'thought'),
          ],
          planTexts: [`${currently} ${place}: workshop`, `having lunch ${place}: kitchen`],
          known: [{ name: friendName, relationship: `${friendName} is an old friend from school.` }],
          others: names.filter((n) => n !== name),
        },
      ];
    }),
  );
}

/** Answers an agent grounded in its own records would give. */
function answersOf(r: AgentRecord): Array<{ category: InterviewCategory; question: string; answer: string }> {
  const p = r.persona;
  const doing = p.currently.replace(`${p.name} is `, '').replace(/\.$/, '');
  const friend = r.known[0].name;
  return [
    {
      category: 'self-knowledge',
      question: 'Give an introduction of yourself.',
      answer: `I'm ${p.name}, ${p.age}. I am ${p.learned.replace(`${p.name} is `, '')}`,
    },
    { category: 'memory', question: `Who is ${friend}?`, answer: `${friend.split(' ')[0]}? An old friend from school. ${r.memories[2].description}.` },
    { category: 'plans', question: 'What are your plans for today?', answer: `Right now I'm ${doing} at ${p.home}, then lunch.` },
    {
      category: 'reactions',
      question: 'Your breakfast is burning! What would you do?',
      answer: `I'd take the breakfast off the heat, then go back to ${doing} at ${p.home}.`,
    },
    { category: 'reflections', question: 'What inspires you in life the most right now, and why?', answer: `I've realised that ${doing} takes patience.` },
  ];
}

describe('the interview grader', () => {
  const town = records();
  const asked = [...town].flatMap(([agentId, r]) => answersOf(r).map((a) => ({ agentId, ...a })));

  it('passes answers grounded in the agent own records, in every category', () => {
    const report = gradeInterviews(asked, town, 1);
    expect(report.results.filter((r) => !r.passed)).toEqual([]);
    expect(report.overall).toBe(1);
  });

  it('fails every control: the same answers on another agent records, on shuffled records, and a generic sentence', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = gradeInterviews(asked, town, seed);
      for (const control of ['other-agent', 'shuffled', 'generic'] as const)
        expect(report.controls[control].overall, `${control}, seed ${seed}`).toBeLessThanOrEqual(0.1);
      // The controls built from the agent's own words (negated, contradicted, salad) fail on its own records.
      for (const control of ['negation', 'contradiction', 'word-salad'] as const)
        expect(report.controls[control].overall, `${control}, seed ${seed}`).toBeLessThanOrEqual(0.05);
      expect(report.controlPassRate).toBeLessThanOrEqual(0.1);
    }
  });

  it("does not hold an answer about someone against that person's own records, but does against a third resident's", () => {
    const seen = (r: AgentRecord, id: number, text: string) => r.memories.push({ ...r.memories[0], id, agentId: r.persona.id, description: text } as Memory);
    const withEli = records();
    seen(withEli.get('ana')!, 901, 'Eli Novak is collecting honey from the orchard hives.');
    const about = 'Eli? I saw him collecting honey from the orchard hives.';
    // Eli's own records say the same of Eli: he is the subject, not a rival.
    expect(new InterviewGrader(withEli).grade('ana', 'memory', 'Who is Eli Novak?', about)).toEqual({ passed: true, failure: null });
    // The control: a third resident who saw it too fits as well, and the answer fails.
    seen(withEli.get('dev')!, 902, 'Eli Novak is collecting honey from the orchard hives.');
    expect(new InterviewGrader(withEli).grade('ana', 'memory', 'Who is Eli Novak?', about).failure).toMatch(/fits dev's records as well as its own/);
  });

  it('fails news that every agent holds, and degenerate answers, with the reason', () => {
    const grader = new InterviewGrader(town);
    const news = grader.grade('ana', 'memory', 'What news have you heard lately?', `I heard that ${TOWN_NEWS.toLowerCase()}`);
    expect(news.passed).toBe(false);
    expect(news.failure).toMatch(/records as well as its own|not grounded/);
    expect(grader.grade('ana', 'reactions', 'Your breakfast is burning! What would you do?', 'I breakfast.').passed).toBe(false);
    expect(grader.grade('ana', 'reactions', 'The shop you wanted to visit is closed today. What would you do?', 'I closed.').passed).toBe(false);
    expect(grader.grade('ana', 'self-knowledge', 'Give an introduction of yourself.', "I'm Bruno Keller.").failure).toBe('claims to be Bruno Keller');
    expect(grader.grade('ana', 'plans', 'What are your plans for today?', GENERIC_ANSWERS.plans).passed).toBe(false);
  });

  it('moves every record one resident along for the other-agent control, and deals items at random (seeded) for the shuffled one', () => {
    const moved = otherAgentRecords(town);
    expect(moved.get('ana')).toBe(town.get('bruno'));
    expect(moved.get('eli')).toBe(town.get('ana'));
    const a = shuffledRecords(town, 7);
    expect(
      shuffledRecords(town, 7)
        .get('ana')!
        .memories.map((m) => m.id),
    ).toEqual(a.get('ana')!.memories.map((m) => m.id));
    expect(a.get('ana')!.persona.name).toBe('Ana Silva');
    expect(a.get('ana')!.memories).toHaveLength(4);
    const all = [...a.values()].flatMap((r) => r.memories.map((m) => m.id)).sort((x, y) => x - y);
    expect(all).toEqual([...town.values()].flatMap((r) => r.memories.map((m) => m.id)).sort((x, y) => x - y));
    expect([...a].filter(([id, r]) => r.memories.every((m) => town.get(id)!.memories.includes(m)))).not.toHaveLength(5);
  });

  it('says which records it lacks', () => {
    expect(() => new InterviewGrader(town).grade('zed', 'memory', 'Who?', 'Nobody.')).toThrow('no records for agent "zed"');
  });

  it('fails wrong answers written by hand: negation, contradiction and word salad, each with its reason', () => {
    const grader = new InterviewGrader(town);
    const ana = (category: InterviewCategory, question: string, answer: string) => grader.grade('ana', category, question, answer).failure;
    expect(
      ana('self-knowledge', 'Give an introduction of yourself.', 'I hate baking and I have never baked sourdough loaves; I am not the baker of the village.'),
    ).toMatch(/denies its records/);
    expect(ana('self-knowledge', 'Give an introduction of yourself.', "I'm Ana Silva. I bake sourdough loaves before dawn. I live at Keller Forge.")).toMatch(
      /lives at Keller Forge/,
    );
    expect(
      ana('self-knowledge', 'Give an introduction of yourself.', "I'm Ana Silva. I bake sourdough loaves before dawn. I work at the Post Office."),
    ).toMatch(/works at Post Office/);
    expect(ana('memory', 'Who is Bruno Keller?', 'Bruno Keller is my husband. He said the blacksmith needs paint.')).toMatch(/calls Bruno Keller its husband/);
    expect(ana('plans', 'What are your plans for today?', 'sourdough loaves baking dawn Silva Bakery kitchen lunch.')).toMatch(/not sentences/);
  });

  it('passes the same answers said plainly (controls of the test above)', () => {
    const grader = new InterviewGrader(town);
    expect(
      grader.grade(
        'ana',
        'self-knowledge',
        'Give an introduction of yourself.',
        "I'm Ana Silva, the baker of the village. I bake sourdough loaves before dawn.",
      ),
    ).toEqual({ passed: true, failure: null });
    expect(grader.grade('ana', 'memory', 'Who is Bruno Keller?', `Bruno? An old friend from school. ${town.get('ana')!.memories[2].description}.`)).toEqual({
      passed: true,
      failure: null,
    });
  });
});
