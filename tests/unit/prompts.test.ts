// Prompts are versioned and snapshot-tested: a change to any prompt shows here and must bump its version.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePersona } from '../../server/src/world/persona';
import * as P from '../../server/src/agent/prompts';
import type { Memory } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';

const isabella = parsePersona(fs.readFileSync('personas/isabella.yaml', 'utf8'), 'personas/isabella.yaml');
const claire = parsePersona(fs.readFileSync('personas/claire.yaml', 'utf8'), 'personas/claire.yaml');
const memory = (id: number, description: string): Memory => ({
  id,
  agentId: asAgentId('isabella'),
  kind: 'observation',
  description,
  createdGameMs: 0,
  lastAccessedGameMs: 0,
  importance: 5,
  triple: null,
  evidenceIds: [],
});
const memories = [memory(1, 'Claire Moreau is shelving returned books'), memory(2, 'Isabella is planning a party')];
const now = Date.UTC(2026, 1, 13, 9, 30);

describe('prompts', () => {
  it('carry their purpose and version', () => {
    for (const purpose of Object.keys(P.PROMPT_VERSIONS) as Array<keyof typeof P.PROMPT_VERSIONS>) {
      if (purpose === 'summarise') continue;
      expect(P.system(isabella, purpose).content).toContain(`[${purpose} v${P.PROMPT_VERSIONS[purpose]}]`);
    }
  });

  it('match their snapshots', () => {
    const all = {
      importance: P.importancePrompt(isabella, ['Claire Moreau is shelving returned books', 'Hobbs Cafe is closed']),
      appraise: P.appraisePrompt(isabella, {
        nowLabel: P.nowLabel(now),
        currentAction: 'serving customers',
        observations: ['Claire Moreau is shelving returned books', 'Hobbs Cafe is closed'],
        company: [{ name: 'Claire Moreau', relationship: isabella.relationships.claire, lastTalked: null, news: ['Isabella is planning a party'] }],
      }),
      plan: P.planPrompt(isabella, 'Fri 13 Feb 2026', P.routineText(isabella), memories),
      planRevisingStatus: P.planPrompt(isabella, 'Sat 14 Feb 2026', P.routineText(isabella), memories, memories),
      hourBlocks: P.hourBlocksPrompt(isabella, ['wake up at 6am', 'run the cafe'], ['Hobbs Cafe: cafe', 'Rivera House: kitchen']),
      actions: P.actionsPrompt(
        isabella,
        [{ start: '07:00', activity: 'opening the cafe', place: 'Hobbs Cafe: cafe' }],
        { 'Hobbs Cafe: cafe': ['counter', 'coffee machine'] },
        { from: '07:00', to: '12:00' },
      ),
      react: P.reactPrompt(isabella, P.nowLabel(now), 'serving customers', ['Hobbs Cafe is closed today'], memories, ['Hobbs Cafe: cafe']),
      converse: P.turnPrompt(isabella, claire, {
        nowLabel: P.nowLabel(now),
        place: 'Hobbs Cafe: cafe',
        currentAction: 'serving customers',
        relationship: isabella.relationships.claire,
        memories,
        history: [{ speakerName: 'Claire Moreau', text: 'Hi Isabella!' }],
        lastTurn: false,
      }),
      converseWhole: P.wholeConversationPrompt(
        { persona: isabella, relationship: isabella.relationships.claire, memories, currentAction: 'serving customers' },
        { persona: claire, relationship: null, memories: [], currentAction: 'reading' },
        { nowLabel: P.nowLabel(now), place: 'Hobbs Cafe: cafe', maxLines: 8 },
      ),
      summarise: P.summaryPrompt(isabella, claire, [{ speakerName: 'Isabella Rivera', text: 'Come to my party!' }], {
        nowLabel: P.nowLabel(now),
        relationships: [isabella.relationships.claire, null],
        plans: ['17:00 hosting the party @ Hobbs Cafe: cafe', ''],
      }),
      questions: P.questionsPrompt(isabella, memories),
      insights: P.insightsPrompt(isabella, 'What is Isabella busy with?', memories),
      interview: P.interviewPrompt(isabella, P.nowLabel(now), 'serving customers', 'Who are you?', memories),
      interviewAboutSomeone: P.interviewPrompt(isabella, P.nowLabel(now), 'serving customers', 'How do you feel about Claire?', memories, [
        { name: 'Claire Moreau', relationship: isabella.relationships.claire },
      ]),
    };
    expect(all).toMatchSnapshot();
  });

  it('derive JSON Schemas that a strict structured-output endpoint accepts', async () => {
    const { z } = await import('zod');
    for (const schema of [
      P.ImportanceReply,
      P.AppraiseReply,
      P.ConversationReply,
      P.PlanReply,
      P.HourBlocksReply,
      P.ActionsReply,
      P.ReactReply,
      P.TurnReply,
      P.SummaryReply,
      P.QuestionsReply,
      P.InsightsReply,
      P.InterviewReply,
    ]) {
      const json = z.toJSONSchema(schema) as { type: string; additionalProperties: boolean; required: string[]; properties: Record<string, unknown> };
      expect(json.type).toBe('object');
      expect(json.additionalProperties).toBe(false);
      expect(json.required.sort()).toEqual(Object.keys(json.properties).sort());
    }
  });
});
