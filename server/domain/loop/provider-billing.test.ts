import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { useTestDatabase } from '../../testing/database';
import { insertSignalRow } from '../../testing/fixtures/loop';
import { LoopService } from './loop-service';

/**
 * What a cycle that failed in the provider's hands leaves behind: nothing applied, what was billed
 * charged to the day; and a provider that bills past the bound a cycle gave it pauses the loop.
 */

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'Europe/Paris' } });
let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});
beforeEach(async () => {
  // $2.50 / $10 per million tokens, set by the operator for a server the price table does not know.
  await t.db.updateTable('workspace').set({ engine: 'openai', engineModel: 'frontier-1', engineBaseUrl: chat.baseUrl, engineInputPrice: 2_500_000, engineOutputPrice: 10_000_000 }).execute();
});

const loop = () => new LoopService({ db: t.db, clock: t.clock, engineFor: (s) => createEngine(s, null, { maxRetries: 0 }) });
const empty = (ids: string[]) => JSON.stringify({ newTasks: [{ ref: 'new-1', title: 'Price change', summary: 'A competitor changed prices.', kind: 'research', deliverableType: 'brief', priority: 'high', tags: [], signalIds: ids }], taskUpdates: [], artifacts: [], memory: [], workLog: [], triagedSignalIds: ids });
const spent = async () => (await t.db.selectFrom('costDaily').select('costMicroUsd').where('dimension', '=', 'workspace').executeTakeFirst())?.costMicroUsd ?? 0;

describe('a cycle the provider failed', () => {
  it('applies nothing when the answer stays unusable after its repair, and charges what both calls were billed', async () => {
    const id = await insertSignalRow({ db: t.db, clock: t.clock }, { title: 'Competitor raises prices' });
    chat.answer({ content: '{"newTasks": [', usage: { prompt_tokens: 1000, completion_tokens: 100 } });
    const run = await loop().runNow();
    expect(run).toMatchObject({ status: 'failed', inputTokens: 2000, outputTokens: 200, estimatedCostUsd: 0.007, errorMessage: "The model's answer is not valid JSON. (after a repair request)" });
    expect(await t.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect((await t.db.selectFrom('signals').select('triagedAt').where('id', '=', id).executeTakeFirstOrThrow()).triagedAt).toBeNull();
    expect(await spent()).toBe(7000);
    expect((await t.db.selectFrom('workspace').select('loopState').executeTakeFirstOrThrow()).loopState).toBe('on');
  });

  it('pauses the loop, saying why, when the provider bills past the bound it was given', async () => {
    const id = await insertSignalRow({ db: t.db, clock: t.clock }, { title: 'Competitor raises prices' });
    // Ignores the bound: bills ten times the longest answer it was allowed.
    chat.answer((body) => ({ content: empty([id]), usage: { prompt_tokens: 1500, completion_tokens: Number(body.max_tokens) * 10 } }));
    const run = await loop().runNow();
    expect(run.status).toBe('completed');
    expect(run.maxOutputTokens).toBeGreaterThan(0);
    expect(run.outputTokens).toBe(run.maxOutputTokens! * 10);
    // Recorded as billed, over what was left.
    expect(await spent()).toBeGreaterThan(500_000);
    const ws = await t.db.selectFrom('workspace').select(['loopState', 'loopPauseReason']).executeTakeFirstOrThrow();
    expect(ws.loopState).toBe('paused');
    expect(ws.loopPauseReason).toMatch(new RegExp(`^The provider billed [\\d.]+ USD for cycle ${run.id}, more than the 0\\.5 USD left of today's cost cap that the cycle was bounded to`));
    const activity = await t.db.selectFrom('activity').select(['kind', 'detail']).where('kind', '=', 'workspace.loop_state').execute();
    expect(activity).toEqual([{ kind: 'workspace.loop_state', detail: `Loop paused by the desk: ${ws.loopPauseReason}` }]);
    const events = await t.db.selectFrom('outboxEvents').select('event').where('event', '=', 'loop.state_changed').execute();
    expect(events).toHaveLength(1);
  });
});
