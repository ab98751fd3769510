import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { cycleInput, memory, memoryStore, signal, task } from '../../testing/fixtures/engine-input';
import { CycleCancelledError, EngineError, type CycleInput } from '../types';
import { OpenAIEngine } from './index';
import { splitProportionally } from './messages';

const KEY = 'sk-test-0123456789abcdef';
let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});
beforeEach(() => {
  chat.requests.length = 0;
});

const engine = (over: Partial<ConstructorParameters<typeof OpenAIEngine>[0]> = {}) =>
  new OpenAIEngine({ baseUrl: chat.baseUrl, model: 'gpt-4o-mini', apiKey: KEY, maxRetries: 0, timeoutMs: 5000, ...over });

function scenario(): { input: CycleInput; calls: ReturnType<typeof memoryStore>['calls'] } {
  const store = memoryStore([memory('mem_1', 'Refund policy', 'Annual plans are refundable within 30 days.')]);
  const input = cycleInput({
    tasks: [
      task('tsk_a', 'Refund requests on annual plans', { summary: 'Customers ask for refunds.', notes: [{ id: 'note_1', text: 'Always offer pro-rated refunds.', createdAt: '2026-11-23T08:00:00.000Z' }], hasNewInput: true }),
      task('tsk_b', 'Blocked migration', { workable: false }),
    ],
    newSignals: [signal('sig_1', 'Another refund request'), signal('sig_2', 'Competitor raises prices', { kind: 'news' })],
    searchMemory: store.search,
  });
  return { input, calls: store.calls };
}

const goodAnswer = {
  newTasks: [{ ref: 'new-1', title: 'Assess competitor price rise', summary: 'A competitor raised prices.', kind: 'research', deliverableType: 'brief', priority: 'high', tags: ['Pricing', 'bad tag!'], signalIds: ['sig_2'] }],
  taskUpdates: [{ taskId: 'tsk_a', addSignalIds: ['sig_1'], status: null, priority: 'high' }],
  artifacts: [{ taskRef: 'tsk_a', kind: 'email', title: 'Reply to refund requests', content: '# Reply\n\nWhat happened: [S1] …', signalIds: ['sig_1'], memoryIds: ['mem_1'] }],
  memory: [{ kind: 'preference', title: 'Pro-rated refunds', content: 'Always offer pro-rated refunds.', tags: [], importance: 7 }],
  workLog: [
    { taskRef: 'tsk_a', entry: 'Drafted the reply.', consumedNoteIds: ['note_1'], status: 'in_progress' },
    { taskRef: 'new-1', entry: 'Opened for the price rise.', consumedNoteIds: [], status: null },
  ],
  triagedSignalIds: ['sig_1', 'sig_2'],
};

describe('openai engine against a chat-completions server', () => {
  it('sends the cycle with a strict JSON schema and maps the structured answer into decisions', async () => {
    const { input, calls } = scenario();
    chat.answer({ content: JSON.stringify(goodAnswer), usage: { prompt_tokens: 1200, completion_tokens: 300 } });
    const d = await engine().runCycle(input);
    expect(chat.requests).toHaveLength(1);
    const req = chat.requests[0];
    expect(req.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body.model).toBe('gpt-4o-mini');
    expect(req.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'cycle_decisions', strict: true } });
    const user = (req.body.messages as { role: string; content: string }[])[1].content;
    expect(user).toContain('<untrusted-data>\n[N1] (sig_1, news, normal, 2026-11-23T09:00:00.000Z) title: "Another refund request"');
    expect(user).toContain('## Task tsk_a: Refund requests on annual plans');
    expect(user).toContain('[M1] (mem_1, fact) Refund policy');
    expect(user).toContain('(blocked: do not work)');
    // Memory retrieved for the work candidate only (the blocked task is not one).
    expect(calls.map((c) => c.taskRef)).toEqual(['tsk_a']);

    expect(d.newTasks).toEqual([{ ref: 'new-1', title: 'Assess competitor price rise', summary: 'A competitor raised prices.', kind: 'research', deliverableType: 'brief', priority: 'high', tags: ['pricing', 'bad-tag'], signalIds: ['sig_2'] }]);
    expect(d.taskUpdates).toEqual([{ taskId: 'tsk_a', addSignalIds: ['sig_1'], priority: 'high' }]);
    expect(d.artifacts).toEqual([goodAnswer.artifacts[0]]);
    expect(d.workLog).toEqual([
      { taskRef: 'tsk_a', entry: 'Drafted the reply.', consumedNoteIds: ['note_1'], status: 'in_progress' },
      { taskRef: 'new-1', entry: 'Opened for the price rise.', consumedNoteIds: [] },
    ]);
    expect(d.memory).toEqual(goodAnswer.memory);
    expect(d.triagedSignalIds).toEqual(['sig_1', 'sig_2']);
    expect(d.usage).toEqual({ inputTokens: 1200, outputTokens: 300 });
    const parts = Object.values(d.usageByTask);
    expect(parts.reduce((a, u) => a + u.inputTokens, 0)).toBe(1200);
    expect(parts.reduce((a, u) => a + u.outputTokens, 0)).toBe(300);
    expect(d.usageByTask.tsk_a.inputTokens).toBeGreaterThan(d.usageByTask.tsk_b.inputTokens);
    expect(d.usageByTask.tsk_b.outputTokens).toBe(0);
    expect(d.usageByTask['new-1'].outputTokens).toBeGreaterThan(0);
  });

  it('turns a provider 500 into an EngineError after its retries', async () => {
    chat.answer({ status: 500, message: 'upstream overloaded' });
    await expect(engine({ maxRetries: 2 }).runCycle(scenario().input)).rejects.toThrow('The provider failed (500): upstream overloaded');
    expect(chat.requests).toHaveLength(3);
  });

  it('reports a rejected key without the key', async () => {
    chat.answer({ status: 401, message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com.` });
    const err = await engine({ maxRetries: 2 }).runCycle(scenario().input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as Error).message).toBe('The provider rejected the API key (401): Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com.');
    expect(chat.requests).toHaveLength(1);
  });

  it('rejects content that is not JSON after one repair request, and a refusal at once', async () => {
    chat.answer({ content: '{"newTasks": [', usage: { prompt_tokens: 1000, completion_tokens: 10 } });
    const err = (await engine().runCycle(scenario().input).catch((e: unknown) => e)) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect(err.message).toBe("The model's answer is not valid JSON. (after a repair request)");
    expect(chat.requests).toHaveLength(2);
    // Both calls were paid for: the run charges them.
    expect(err.billed).toEqual({ inputTokens: 2000, outputTokens: 20 });
    const repair = chat.requests[1].body.messages as { role: string; content: string }[];
    expect(repair.slice(-2)).toEqual([
      { role: 'assistant', content: '{"newTasks": [' },
      { role: 'user', content: expect.stringContaining("Your answer could not be used: The model's answer is not valid JSON.") },
    ]);
    chat.requests.length = 0;
    chat.answer({ content: '', refusal: 'I cannot help with that.' });
    await expect(engine().runCycle(scenario().input)).rejects.toThrow('The model refused the cycle: I cannot help with that.');
    expect(chat.requests).toHaveLength(1);
  });

  it('rejects answers that break the schema or point at things the cycle did not show (after one repair)', async () => {
    const cases: [unknown, string][] = [
      [{ ...goodAnswer, taskUpdates: [{ taskId: 'tsk_zzz', addSignalIds: [], status: null, priority: null }] }, 'taskUpdates[0].taskId is not an open task of this cycle ("tsk_zzz")'],
      [{ ...goodAnswer, newTasks: [{ ...goodAnswer.newTasks[0], priority: 'critical' }] }, 'newTasks[0].priority must be one of low, normal, high, urgent (got "critical")'],
      [{ ...goodAnswer, workLog: undefined }, 'workLog is missing or not an array'],
      [{ ...goodAnswer, artifacts: [{ ...goodAnswer.artifacts[0], title: '' }] }, 'artifacts[0].title is missing or empty'],
      [{ ...goodAnswer, artifacts: [{ ...goodAnswer.artifacts[0], memoryIds: ['mem_9'] }] }, 'artifacts[0].memoryIds[0] is not a memory entry retrieved for this task of this cycle ("mem_9")'],
      [{ ...goodAnswer, artifacts: [{ ...goodAnswer.artifacts[0], taskRef: 'tsk_b' }] }, 'artifacts[0].taskRef is blocked and may not be worked this cycle (tsk_b)'],
      [{ ...goodAnswer, taskUpdates: [{ ...goodAnswer.taskUpdates[0], addSignalIds: ['sig_2'] }] }, 'taskUpdates[0].addSignalIds puts signal sig_2 on both new-1 and tsk_a'],
      [[1, 2], 'the answer is not an object'],
    ];
    for (const [answer, problem] of cases) {
      chat.answer({ content: JSON.stringify(answer) });
      await expect(engine().runCycle(scenario().input)).rejects.toThrow(`The model's answer was rejected: ${problem} (after a repair request)`);
    }
  });

  it('gives up on a provider that does not answer in time, and honours the abort signal', async () => {
    chat.answer({ hang: true });
    await expect(engine({ timeoutMs: 150 }).runCycle(scenario().input)).rejects.toThrow('The provider did not answer in time (request timed out).');
    expect(chat.requests).toHaveLength(1); // a timed-out request may have been billed: not sent again
    const controller = new AbortController();
    const pending = engine().runCycle({ ...scenario().input, abortSignal: controller.signal });
    await expect.poll(() => chat.requests.length).toBe(2);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CycleCancelledError);
  });
});

describe('splitProportionally', () => {
  it('splits exactly, by largest remainder', () => {
    expect(Object.fromEntries(splitProportionally(10, new Map([['a', 1], ['b', 1], ['c', 1]])))).toEqual({ a: 4, b: 3, c: 3 });
    expect(Object.fromEntries(splitProportionally(100, new Map([['a', 3], ['b', 1]])))).toEqual({ a: 75, b: 25 });
    expect(Object.fromEntries(splitProportionally(7, new Map([['a', 0]])))).toEqual({ a: 0 });
  });
});
