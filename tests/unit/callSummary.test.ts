// The world's summary of its LLM calls (WorldDb.summariseCalls) over the calls after a given one: what a bench that
// opens a town (rating seed memories) and then runs it counts as the run's calls.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { LlmCallRecord } from '../../server/src/llm/types';

const call = (promptTokens: number, purpose: LlmCallRecord['purpose']): LlmCallRecord => ({
  agentId: 'ada',
  purpose,
  model: 'test',
  promptTokens,
  completionTokens: 1,
  latencyMs: 10,
  costUsd: 0,
  cached: false,
  outcome: 'ok',
  gameMs: 0,
  wallMs: 0,
});

describe('the summary of calls after one', () => {
  it('counts only the calls made after it, and all of them without it', () => {
    const db = openWorldDb(':memory:', { model: 'test', dimension: 4 });
    db.callLog.record(call(100, 'importance'));
    const opened = db.db.prepare('SELECT max(id) FROM llm_calls').pluck().get() as number;
    db.callLog.record(call(20, 'plan'));
    db.callLog.record(call(30, 'converse'));
    const run = db.summariseCalls({ afterCallId: opened });
    expect(run.calls).toBe(2);
    expect(run.promptTokens).toBe(50);
    expect(Object.keys(run.byPurpose).sort()).toEqual(['converse', 'plan']);
    expect(db.summariseCalls().calls).toBe(3);
    expect(db.summariseCalls({ afterCallId: opened + 2 }).calls).toBe(0);
    db.close();
  });
});
