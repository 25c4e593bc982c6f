// Canned, schema-valid answers that let the stub endpoint play a believable town: they read what
// the prompt gives (times, places, numbered lists) and answer in kind. Used by tests and benchmarks.
import type { OpenAIStub, StubRequest } from './openaiStub';

// The prompt's own user message (the first): a repair turn adds the model's reply and a second one after it.
const lastUser = (r: StubRequest) => r.messages.find((m) => m.role === 'user')?.content ?? '';
const numbered = (text: string) => (text.match(/^\d+\. /gm) ?? []).length;
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

export function installTownResponders(stub: OpenAIStub, options: { recordInvitations?: boolean } = {}): OpenAIStub {
  stub.respond('importance_reply', (r) => {
    const text = lastUser(r);
    const lines = text.split('\n').filter((l) => /^\d+\. /.test(l));
    return { ratings: lines.map((l) => (/party|invit|festival|closed/i.test(l) ? 8 : /talk|said|heard/i.test(l) ? 5 : 3)) };
  });
  // Observations: ratings as above; react to a closure; talk to someone in view: the first it knows, else the
  // first it has not talked with today (a sociable model).
  stub.respond('appraise_reply', (r) => {
    const text = lastUser(r);
    const perceived = (text.split(/just perceived:\n/)[1] ?? '').split(/\n(?!\d+\. )/)[0];
    const lines = perceived.split('\n').filter((l) => /^\d+\. /.test(l));
    const people = [...text.matchAll(/^- ([^:]+): (.*)$/gm)].map((m) => ({
      name: m[1],
      known: !m[2].startsWith('a stranger'),
      talked: m[2].includes('(last talked'),
    }));
    return {
      ratings: lines.map((l) => (/party|invit|festival|closed/i.test(l) ? 8 : /talk|said|heard/i.test(l) ? 5 : 3)),
      react: lines.some((l) => /closed/i.test(l)),
      talkTo: (people.find((p) => p.known && !p.talked) ?? people.find((p) => !p.talked))?.name ?? null,
    };
  });
  stub.respond('plan_reply', (r) => {
    const revised = /What .+ did and thought yesterday:/.test(lastUser(r));
    return {
      currently: revised ? 'Thinking over yesterday, and keen to get on with today.' : 'Getting on with the week.',
      broadStrokes: ['wake up and get ready', 'work for most of the day', 'have lunch', 'relax in the evening', 'go to bed'],
    };
  });
  stub.respond('decompose_blocks', (r) => {
    const text = lastUser(r);
    const [, wake, sleep] = /day \((\d\d:\d\d) to (\d\d:\d\d)\)/.exec(text) ?? [];
    const home = /Home is ([^;.]+)/.exec(text)?.[1] ?? '';
    const work = /work is ([^.]+)\./.exec(text)?.[1] ?? `${home}: kitchen`;
    const w = minutes(wake);
    const s = minutes(sleep);
    return {
      blocks: [
        { start: wake, activity: 'getting ready', place: `${home}: kitchen` },
        { start: clock(w + 60), activity: 'working', place: work },
        { start: clock(Math.max(w + 120, s - 240)), activity: 'relaxing in the park', place: 'Johnson Park: park' },
        { start: clock(s - 90), activity: 'winding down at home', place: `${home}: kitchen` },
      ],
    };
  });
  stub.respond('decompose_actions', (r) => {
    const text = lastUser(r);
    const blocks = [...text.matchAll(/^(\d\d:\d\d) (.+?) @ (.+?) \[objects: (.*)\]$/gm)].map((m) => ({
      start: minutes(m[1]),
      activity: m[2],
      place: m[3],
      objects: m[4] === 'none' ? [] : m[4].split(', '),
    }));
    const end = minutes(/to (\d\d?:\d\d) without gaps/.exec(text)?.[1] ?? '22:00');
    const actions: Array<{ start: string; minutes: number; description: string; emoji: string; place: string }> = [];
    blocks.forEach((b, i) => {
      const until = blocks[i + 1]?.start ?? end;
      for (let t = b.start, k = 0; t < until; t += 15, k++) {
        const object = b.objects.length ? b.objects[k % b.objects.length] : null;
        actions.push({
          start: clock(t),
          minutes: Math.min(15, until - t),
          description: k === 0 ? b.activity : `${b.activity} (${k})`,
          emoji: '🙂',
          place: object ? `${b.place}: ${object}` : b.place,
        });
      }
    });
    return { actions };
  });
  stub.respond('react_reply', (r) => {
    const closed = /- (.+?) is closed/.exec(lastUser(r));
    return closed
      ? {
          react: true,
          reason: `${closed[1]} is closed`,
          activity: { description: 'going home instead', emoji: '🏠', place: 'Johnson Park: park', minutes: 30 },
        }
      : { react: false, reason: 'nothing to change', activity: null };
  });
  stub.respond('converse_reply', (r) => {
    const text = lastUser(r);
    const said = text.includes('(the conversation is just starting)') ? 0 : (text.split('Conversation so far:\n')[1] ?? '').split('\n\n')[0].split('\n').length;
    const news = /^\d+\. (.*party.*)$/im.exec(text)?.[1];
    return { line: said === 0 ? 'Hello there!' : news && said === 2 ? `Did you hear? ${news}` : `That is interesting (${said}).`, end: said >= 3 };
  });
  // A whole conversation: a greeting each, the party if either remembers it, goodbyes.
  stub.respond('converse_whole', (r) => {
    const text = lastUser(r);
    const [, a, b] = /\. (.+?) meets (.+?) and starts talking/.exec(text) ?? [];
    const news = /^\d+\. (.*party.*)$/im.exec(text)?.[1];
    const lines = [
      { speaker: a, line: 'Hello there!' },
      { speaker: b, line: 'Hi! Good to see you.' },
      ...(news ? [{ speaker: a, line: `Did you hear? ${news}` }] : []),
      { speaker: b, line: 'Well, I must be going. Bye!' },
    ];
    return { lines };
  });
  // The second one accepts a party they heard of and fits it in an hour from now at Hobbs Cafe; the summary
  // records it as the first one's invitation (with `recordInvitations: false`, a model that never does).
  stub.respond('summarise_reply', (r) => {
    const text = lastUser(r);
    const party = /Did you hear\? (.*)$/m.exec(text)?.[1];
    const [, first, second] = /Conversation between (.+?) \(first\) and (.+?) \(second\)/.exec(text) ?? [];
    const hour = (Number(/^It is .*?(\d\d):\d\d\./.exec(text)?.[1] ?? 16) + 1) % 24;
    const start = `${String(hour).padStart(2, '0')}:00`;
    const plans = party
      ? {
          thought: `I will go to the party at Hobbs Cafe at ${start}.`,
          appointment: { start, minutes: 60, description: 'going to the party', emoji: '🎉', place: 'Hobbs Cafe: cafe' },
        }
      : null;
    return {
      summary: 'They had a friendly chat.',
      learnedByFirst: [],
      learnedBySecond: party ? [party] : [],
      firstNowThinks: 'A friendly face.',
      secondNowThinks: party ? 'A friend who invited me to a party.' : 'A friendly face.',
      firstPlans: null,
      secondPlans: plans,
      invitations:
        party && options.recordInvitations !== false
          ? [{ host: first, guest: second, what: 'the party at Hobbs Cafe', when: `today at ${start}`, answer: 'accepted' }]
          : [],
    };
  });
  stub.respond('reflect_questions', () => ({ questions: ['What matters most lately?', 'Who have I been seeing?', 'What is coming up?'] }));
  stub.respond('reflect_insights', (r) => {
    const n = numbered(lastUser(r));
    return { insights: n >= 2 ? [{ insight: 'Things have been busy lately.', evidence: [1, 2] }] : [{ insight: 'It has been a quiet time.', evidence: [1] }] };
  });
  // In character, from the first memory it was given (what an honest model grounded in its memories would do).
  stub.respond('interview_reply', (r) => {
    const text = lastUser(r);
    const name = /^Name: (.+?) \(age/m.exec(text)?.[1] ?? 'someone';
    const memory = /Relevant memories:\n1\. (.*)$/m.exec(text)?.[1];
    return { answer: memory ? `I'm ${name}. I remember this: ${memory}` : `I'm ${name}, and I don't remember anything about that.` };
  });
  return stub;
}
