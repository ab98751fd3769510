import { beforeAll, describe, expect, it } from 'vitest';
import { GPT_4O_MINI, cycleInput, memory, memoryStore, signal, task } from '../../testing/fixtures/engine-input';
import { costOf } from '../pricing';
import { CycleDoesNotFitError } from '../types';
import { SYSTEM_INSTRUCTIONS } from '../prompt';
import { countTokens, loadTokenizer } from '../usage';
import { LocalEngine, MIN_BRIEF_WORDS } from './index';

// (A block body: a function returned from beforeAll would run as a teardown.)
beforeAll(async () => {
  await loadTokenizer();
});

const engine = new LocalEngine();

describe('local engine: triage', () => {
  it('attaches a related signal to the open task and opens a new task for an unrelated one', async () => {
    const tasks = [
      task('tsk_a', 'Stripe invoice failures for EU customers', { summary: 'Payments to EU customers fail at the invoice step since the Stripe API upgrade.' }),
      task('tsk_b', 'Hiring plan for the support team', { summary: 'Plan two support hires for Q1.' }),
    ];
    const newSignals = [
      signal('sig_1', 'More Stripe invoice failures reported by EU customers', { priority: 'high' }),
      signal('sig_2', 'Competitor launches a desktop app for note taking', { kind: 'news' }),
    ];
    const d = await engine.runCycle(cycleInput({ tasks, newSignals }));
    expect(d.taskUpdates).toEqual([{ taskId: 'tsk_a', addSignalIds: ['sig_1'], priority: 'high' }]);
    expect(d.newTasks).toEqual([
      {
        ref: 'new-1', title: 'Assess: Competitor launches a desktop app for note taking', summary: 'Competitor launches a desktop app for note taking',
        kind: 'research', deliverableType: 'brief', priority: 'normal', tags: [], signalIds: ['sig_2'],
      },
    ]);
    expect(d.triagedSignalIds).toEqual(['sig_1', 'sig_2']);
  });

  it('groups closely related new signals of one cycle into one new task, with fields from the signals', async () => {
    const newSignals = [
      signal('sig_1', 'Checkout page latency alert in eu-west region', { kind: 'alert', priority: 'high', detail: 'p95 checkout latency above 2 s for 10 minutes.' }),
      signal('sig_2', 'Checkout latency alert eu-west again', { kind: 'alert', priority: 'urgent' }),
      signal('sig_3', 'Weekly newsletter signups grew 12%', { kind: 'metric', priority: 'low' }),
    ];
    const d = await engine.runCycle(cycleInput({ newSignals, focusTags: ['checkout', 'pricing-page'] }));
    expect(d.newTasks.map((t) => t.signalIds)).toEqual([['sig_1', 'sig_2'], ['sig_3']]);
    const [alert, metric] = d.newTasks;
    expect(alert).toMatchObject({ kind: 'ops', deliverableType: 'checklist', priority: 'urgent', tags: ['checkout'], title: 'Investigate: Checkout page latency alert in eu-west region' });
    expect(alert.summary).toBe('p95 checkout latency above 2 s for 10 minutes.\n\nRelated signals:\n- Checkout latency alert eu-west again');
    expect(metric).toMatchObject({ kind: 'analysis', deliverableType: 'report', priority: 'low', tags: [] });
    expect(d.triagedSignalIds).toEqual(['sig_1', 'sig_2', 'sig_3']);
  });

  it('groups a morning of feed headlines by story, and keeps unrelated ones apart', async () => {
    const titles = [
      'Stripe raises prices for European customers', 'New Stripe pricing for EU merchants announced', 'Postgres 17 released with faster vacuum',
      'PostgreSQL 17 release notes: vacuum improvements', 'Customer complains checkout is slow on mobile', 'Checkout page slow on mobile Safari',
      'Competitor Acme launches AI assistant', 'Acme AI assistant launch gets mixed reviews', 'Our API returned 500 errors for 10 minutes',
      'Weekly signups up 12%', 'Hiring: senior backend engineer role open', 'Outage: API errors in us-east region',
      'Podcast mentions Desk as a great tool', 'Review: 2 stars, app crashes on login', 'Login crash reported by three users',
    ];
    const d = await engine.runCycle(cycleInput({ newSignals: titles.map((t, i) => signal(`sig_${i}`, t)), workBudget: 0 }));
    expect(d.newTasks.map((t) => t.signalIds.map((id) => Number(id.slice(4))))).toEqual([[0, 1], [2, 3], [4, 5], [6, 7], [8, 11], [9], [10], [12], [13, 14]]);
  });

  it('is deterministic: the same input gives the same decisions', async () => {
    const input = () =>
      cycleInput({
        tasks: [task('tsk_a', 'Refund policy questions', { summary: 'Customers ask about refunds for annual plans.' })],
        newSignals: [signal('sig_1', 'Refund request for annual plan'), signal('sig_2', 'Podcast mention of Desk', { kind: 'mention' })],
        searchMemory: memoryStore([memory('mem_1', 'Refund policy', 'Annual plans are refundable within 30 days.')]).search,
      });
    expect(await engine.runCycle(input())).toEqual(await engine.runCycle(input()));
  });
});

describe('local engine: drafting', () => {
  it('drafts a cited markdown brief from the task, its signals, the memory and the notes', async () => {
    const store = memoryStore([
      memory('mem_1', 'Refund policy', 'Annual plans are refundable within 30 days of purchase.'),
      memory('mem_2', 'Tone for refunds', 'Apologise once, then state the policy plainly.', { kind: 'preference' }),
      memory('mem_3', 'Office plants', 'Water them on Fridays.'),
    ]);
    const t = task('tsk_a', 'Refund requests on annual plans', {
      summary: 'Customers ask for refunds on annual plans after the price change.',
      goal: 'Answer every refund request within a day.',
      deliverableType: 'brief',
      signals: [signal('sig_0', 'Refund request from Acme for annual plan', { kind: 'message', createdAt: '2026-11-22T08:00:00.000Z' })],
      notes: [{ id: 'note_1', text: 'Offer a pro-rated refund, not a full one.', createdAt: '2026-11-23T08:00:00.000Z' }],
      hasNewInput: true,
    });
    const d = await engine.runCycle(cycleInput({ tasks: [t], newSignals: [signal('sig_1', 'Second refund request for an annual plan', { kind: 'message', priority: 'high' })], searchMemory: store.search }));
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0].taskRef).toBe('tsk_a');
    expect(d.artifacts).toHaveLength(1);
    const a = d.artifacts[0];
    expect(a).toMatchObject({ taskRef: 'tsk_a', kind: 'brief', title: 'Brief: Refund requests on annual plans', signalIds: ['sig_0', 'sig_1'], memoryIds: ['mem_1', 'mem_2'] });
    const c = a.content;
    expect(c.startsWith('# Brief: Refund requests on annual plans\n')).toBe(true);
    // A task titled by triage ("Reply: ...") drafts under its subject alone: the label already names the deliverable.
    const triaged = await engine.runCycle(cycleInput({ tasks: [{ ...t, title: 'Reply: Refund requests on annual plans' }], searchMemory: store.search }));
    expect(triaged.artifacts[0].title).toBe('Brief: Refund requests on annual plans');
    for (const heading of ['## What happened', '## What it means', '## What to do next', '## Sources']) expect(c).toContain(heading);
    expect(c).toContain('[S1] **Refund request from Acme for annual plan**');
    expect(c).toContain('[S2] **Second refund request for an annual plan** (message, high');
    expect(c).toContain('[link](https://example.com/sig_1)');
    expect(c).toContain('**Goal:** Answer every refund request within a day.');
    expect(c).toContain('[M1] **Refund policy** (fact): Annual plans are refundable within 30 days of purchase.');
    // Operator notes come first in "What to do next", quoted, then the concrete steps.
    const next = c.slice(c.indexOf('## What to do next'), c.indexOf('## Sources'));
    expect(next).toContain('Operator direction (authoritative):\n\n> Offer a pro-rated refund, not a full one.');
    expect(next.indexOf('1. Follow the operator\'s direction: "Offer a pro-rated refund, not a full one."')).toBeGreaterThan(next.indexOf('> Offer'));
    expect(next).toContain('2. Reply to the message: [S2] "Second refund request for an annual plan". High priority.');
    expect(next).toContain('Keep to the standing preference [M2]: Tone for refunds.');
    expect(c).toContain('- [S2] Second refund request for an annual plan — https://example.com/sig_1 (signal sig_1)');
    expect(c).toContain('- [M2] Tone for refunds (memory mem_2)');
    expect(c).toContain('drafted 23 Nov 2026, 11:00 (Europe/Paris)');
    expect(d.workLog).toEqual([
      { taskRef: 'tsk_a', entry: 'Attached 1 new signal ("Second refund request for an annual plan"). Drafted brief v1 citing 2 signals and 2 memory entries. Followed 1 operator note as direction.', consumedNoteIds: ['note_1'], status: 'in_progress' },
    ]);
  });

  it('re-working a task with an output drafts the next version', async () => {
    const t = task('tsk_a', 'Quarterly churn review', {
      status: 'in_progress',
      summary: 'Churn rose in October among small teams on monthly plans.',
      signals: [signal('sig_0', 'October churn report', { kind: 'metric', createdAt: '2026-11-01T08:00:00.000Z' })],
      latestArtifact: { id: 'art_1', version: 2, title: 'Report: Quarterly churn review', content: '…', status: 'ready', createdAt: '2026-11-20T08:00:00.000Z' },
      notes: [{ id: 'note_1', text: 'Split the numbers by plan.', createdAt: '2026-11-22T08:00:00.000Z' }],
      hasNewInput: true,
    });
    const d = await engine.runCycle(cycleInput({ tasks: [t] }));
    expect(d.artifacts[0].content).toContain('_Version 3 · ');
    expect(d.artifacts[0].content).toContain('Since version 2 (ready): 0 new signals and 1 operator note.');
    expect(d.workLog[0]).toEqual({ taskRef: 'tsk_a', entry: 'Drafted brief v3 citing 1 signal and 0 memory entries. Followed 1 operator note as direction.', consumedNoteIds: ['note_1'] });
  });

  it('works at most workBudget tasks, in rank order, then new tasks; the rest wait with a work-log line', async () => {
    const tasks = [
      task('tsk_1', 'Renew the SSL certificate for the docs site', { summary: 'The docs certificate expires at the end of the month and needs renewing.' }),
      task('tsk_2', 'Draft the launch announcement for the mobile app', { summary: 'Announce the mobile app launch to the mailing list next week.' }),
    ];
    const d = await engine.runCycle(cycleInput({ tasks, newSignals: [signal('sig_1', 'Security advisory for the logging library')], workBudget: 1 }));
    expect(d.artifacts.map((a) => a.taskRef)).toEqual(['tsk_1']);
    expect(d.workLog.map((w) => [w.taskRef, w.entry])).toEqual([
      ['tsk_1', 'Drafted brief v1 citing 0 signals and 0 memory entries.'],
      ['new-1', 'Created from 1 new signal ("Security advisory for the logging library"); not worked this cycle: the work budget went to higher-ranked tasks.'],
    ]);
  });

  it('keeps standing direction from notes as preference memory', async () => {
    const t = task('tsk_a', 'Weekly investor update', {
      summary: 'Send the weekly investor update with revenue, burn and hiring.', tags: ['investors'],
      notes: [
        { id: 'note_1', text: 'Use the new revenue numbers. From now on, always lead with cash runway.', createdAt: '2026-11-23T08:00:00.000Z' },
        { id: 'note_2', text: 'Mention the new hire.', createdAt: '2026-11-23T08:05:00.000Z' },
      ],
      hasNewInput: true,
    });
    const d = await engine.runCycle(cycleInput({ tasks: [t] }));
    expect(d.memory).toEqual([
      { kind: 'preference', title: 'From now on, always lead with cash runway.', content: 'From now on, always lead with cash runway.\n\n(From an operator note on the task "Weekly investor update".)', tags: ['investors'], importance: 7 },
    ]);
    expect(d.workLog[0].consumedNoteIds).toEqual(['note_1', 'note_2']);
  });
});

describe('local engine: moving tasks along', () => {
  it('asks for input when a manual task has no signals, no notes and too thin a summary (once)', async () => {
    const t = task('tsk_a', 'Look at that', { summary: 'see title' });
    const d = await engine.runCycle(cycleInput({ tasks: [t] }));
    expect(d.artifacts).toEqual([]);
    expect(d.workLog).toEqual([
      {
        taskRef: 'tsk_a', status: 'needs_input', consumedNoteIds: [],
        entry: `Needs input: no signals, no operator notes, and the title, summary, goal and context give only 3 meaningful words (at least ${MIN_BRIEF_WORDS} needed to draft from). Add an operator note saying what the output should cover, or attach a signal.`,
      },
    ]);
    const again = await engine.runCycle(cycleInput({ tasks: [{ ...t, status: 'needs_input' }] }));
    expect(again.workLog).toEqual([]);
    // A note gives it what it needs: drafted and back in progress.
    const noted = await engine.runCycle(cycleInput({ tasks: [{ ...t, status: 'needs_input', notes: [{ id: 'note_1', text: 'Compare our pricing page with the two main competitors.', createdAt: '2026-11-23T08:00:00.000Z' }], hasNewInput: true }] }));
    expect(noted.artifacts).toHaveLength(1);
    expect(noted.workLog[0].status).toBe('in_progress');
  });

  it('marks a task done when its latest output was approved and nothing new arrived; an archived one needs input', async () => {
    const latest = { id: 'art_1', version: 1, title: 'Brief: Pricing page review', content: '…', createdAt: '2026-11-20T08:00:00.000Z' };
    const approved = task('tsk_a', 'Pricing page review', { status: 'in_progress', latestArtifact: { ...latest, status: 'approved' } });
    const archived = task('tsk_b', 'Pricing page copy', { status: 'in_progress', latestArtifact: { ...latest, id: 'art_2', status: 'archived' } });
    const waiting = task('tsk_c', 'Pricing page images', { status: 'in_progress', latestArtifact: { ...latest, id: 'art_3', status: 'ready' } });
    const d = await engine.runCycle(cycleInput({ tasks: [approved, archived, waiting] }));
    expect(d.artifacts).toEqual([]);
    expect(d.workLog.map((w) => [w.taskRef, w.status])).toEqual([['tsk_a', 'done'], ['tsk_b', 'needs_input']]);
    expect(d.workLog[0].entry).toBe('Delivered: output v1 ("Brief: Pricing page review") was approved and nothing new arrived since; marked done.');
  });

  it('attaches signals to a blocked task but does not work it', async () => {
    const t = task('tsk_a', 'Database migration to Postgres', { summary: 'Move the analytics database to Postgres.', workable: false });
    const d = await engine.runCycle(cycleInput({ tasks: [t], newSignals: [signal('sig_1', 'Postgres migration guide for analytics database')] }));
    expect(d.taskUpdates).toEqual([{ taskId: 'tsk_a', addSignalIds: ['sig_1'] }]);
    expect(d.artifacts).toEqual([]);
    expect(d.workLog).toEqual([{ taskRef: 'tsk_a', entry: 'Attached 1 new signal ("Postgres migration guide for analytics database"); not worked: blocked until its blockers are done.', consumedNoteIds: [] }]);
  });
});

describe('local engine: usage', () => {
  it('counts the prompt it would have sent and the output it wrote, per task and in total', async () => {
    const d = await engine.runCycle(
      cycleInput({
        tasks: [task('tsk_a', 'Support backlog triage', { summary: 'The support queue has 40 open tickets older than a week; sort them by urgency.' })],
        newSignals: [signal('sig_1', 'Status page incident: API errors in us-east'), signal('sig_2', 'Support ticket backlog older than a week grows')],
      }),
    );
    const refs = Object.keys(d.usageByTask).sort();
    expect(refs).toEqual(['new-1', 'tsk_a']);
    const system = countTokens(SYSTEM_INSTRUCTIONS);
    for (const ref of refs) {
      expect(d.usageByTask[ref].inputTokens).toBeGreaterThan(system);
      const content = d.artifacts.find((a) => a.taskRef === ref)!.content;
      expect(d.usageByTask[ref].outputTokens).toBeGreaterThan(countTokens(content));
    }
    expect(d.usage).toEqual({
      inputTokens: d.usageByTask['new-1'].inputTokens + d.usageByTask.tsk_a.inputTokens,
      outputTokens: d.usageByTask['new-1'].outputTokens + d.usageByTask.tsk_a.outputTokens,
    });
  });

  it('keeps a large cycle off the event loop: other callbacks run while 1,000 signals are triaged', async () => {
    const newSignals = Array.from({ length: 1000 }, (_, i) => signal(`sig_${String(i).padStart(4, '0')}`, `Topic ${i % 97} update number ${i} about product area ${i % 13}`, { detail: `Details about area ${i % 13} and topic ${i % 97}.` }));
    const tasks = Array.from({ length: 200 }, (_, i) => task(`tsk_${i}`, `Follow topic ${i} in area ${i % 17}`, { summary: `Track what happens with topic ${i}.` }));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    const pending = engine.runCycle(cycleInput({ tasks, newSignals, workBudget: 10 }));
    const d = await pending;
    clearInterval(timer);
    expect(d.triagedSignalIds).toHaveLength(1000);
    expect(new Set([...d.newTasks.flatMap((t) => t.signalIds), ...d.taskUpdates.flatMap((u) => u.addSignalIds)]).size).toBe(1000);
    expect(d.artifacts).toHaveLength(10);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('local engine: the cap as a ceiling', () => {
  const filler = 'A customer on the annual plan asks about a refund for the unused months and wants an invoice.';
  const busy = (remainingMicroUsd: number | null) =>
    cycleInput({
      tasks: Array.from({ length: 4 }, (_, i) => task(`tsk_${i}`, `Refund requests wave ${i} from annual customers`, { summary: filler, hasNewInput: true, signals: [signal(`old_${i}`, `Refund ask ${i}`, { detail: filler })] })),
      newSignals: Array.from({ length: 30 }, (_, i) => signal(`sig_${i}`, `Competitor news item ${i} about pricing`, { detail: filler })),
      budget: { price: GPT_4O_MINI, remainingMicroUsd },
    });

  it('does all the work when it fits, and within the cap when only part of it does', async () => {
    const full = await new LocalEngine().runCycle(busy(null));
    const fullCost = costOf(GPT_4O_MINI, full.usage);
    expect(full.triagedSignalIds).toHaveLength(30);
    expect(full.artifacts.length).toBeGreaterThan(2);

    const cap = Math.floor(fullCost * 0.6);
    const part = await new LocalEngine().runCycle(busy(cap));
    expect(costOf(GPT_4O_MINI, part.usage)).toBeLessThanOrEqual(cap);
    expect(part.artifacts.length).toBeLessThan(full.artifacts.length);
    expect(part.workLog.some((w) => w.entry.includes("what is left of today's cost cap does not pay for its draft"))).toBe(true);
    // The per-task split still adds up to the total charged.
    const parts = Object.values(part.usageByTask);
    expect(parts.reduce((a, u) => a + u.inputTokens, 0)).toBe(part.usage.inputTokens);
  });

  it('takes in only the oldest signals it can pay to triage; the rest wait, untriaged', async () => {
    const full = await new LocalEngine().runCycle(busy(null));
    const triageOnly = costOf(GPT_4O_MINI, Object.values(full.usageByTask).reduce((a, u) => ({ inputTokens: a.inputTokens + u.inputTokens, outputTokens: a.outputTokens + u.outputTokens }), { inputTokens: 0, outputTokens: 0 }));
    const d = await new LocalEngine().runCycle(busy(Math.floor(triageOnly / 10)));
    expect(d.triagedSignalIds.length).toBeGreaterThan(0);
    expect(d.triagedSignalIds.length).toBeLessThan(30);
    expect(d.triagedSignalIds).toEqual(Array.from({ length: d.triagedSignalIds.length }, (_, i) => `sig_${i}`));
    const placed = new Set([...d.newTasks.flatMap((t) => t.signalIds), ...d.taskUpdates.flatMap((u) => u.addSignalIds)]);
    for (const id of placed) expect(d.triagedSignalIds).toContain(id);
    expect(costOf(GPT_4O_MINI, d.usage)).toBeLessThanOrEqual(Math.floor(triageOnly / 10));
  });

  it('refuses the cycle, saying what it would cost, when not even one signal fits', async () => {
    const err = await new LocalEngine().runCycle({ ...busy(1), tasks: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CycleDoesNotFitError);
    expect((err as Error).message).toMatch(/^Not even the smallest cycle fits in what is left of today's cost cap: triaging one new signal \([\d,]+ prompt and [\d,]+ answer tokens at gpt-4o-mini's price\) would cost \$0\.\d{4}, and \$0\.0000 is left\./);
  });
});
