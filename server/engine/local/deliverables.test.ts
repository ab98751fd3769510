import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskDeliverableType } from '../../core/vocabulary';
import { cycleInput, memory, memoryStore, signal, task } from '../../testing/fixtures/engine-input';
import { loadTokenizer } from '../usage';
import { LocalEngine } from './index';

/** Built-in drafts read as their deliverable (issue 29, part 5): one test per type, each still citing its sources. */

beforeAll(async () => {
  await loadTokenizer();
});

const engine = new LocalEngine();
const REPEATED = 'Stripe raises prices for European customers';

async function draftOf(deliverableType: TaskDeliverableType, over: Parameters<typeof task>[2] = {}) {
  const store = memoryStore([
    memory('mem_1', 'Refund policy', 'Annual plans are refundable within 30 days of purchase.'),
    memory('mem_2', 'Tone for customers', 'Apologise once, then state the policy plainly.', { kind: 'preference' }),
  ]);
  const t = task('tsk_a', 'Refund requests on annual plans', {
    summary: 'Customers ask for refunds on annual plans after the price change.',
    goal: 'Answer every refund request within a day.',
    deliverableType,
    signals: [
      signal('sig_1', 'Refund request from Acme for annual plan', { kind: 'message', createdAt: '2026-11-22T08:00:00.000Z', detail: 'Acme wants its money back after the price change.' }),
      signal('sig_2', 'Refund request from Acme for the annual plan', { kind: 'message', priority: 'high', createdAt: '2026-11-22T09:00:00.000Z', detail: 'Acme wants its money back after the price change.' }),
      signal('sig_3', 'Checkout error for EU cards', { kind: 'alert', priority: 'urgent', createdAt: '2026-11-22T10:00:00.000Z' }),
    ],
    notes: [{ id: 'note_1', text: 'Offer a pro-rated refund, not a full one.', createdAt: '2026-11-23T08:00:00.000Z' }],
    hasNewInput: true,
    ...over,
  });
  const d = await engine.runCycle(cycleInput({ tasks: [t], searchMemory: store.search }));
  expect(d.artifacts).toHaveLength(1);
  const a = d.artifacts[0];
  // Every type cites what it drew on, in its Sources.
  expect(a.signalIds).toEqual(['sig_1', 'sig_2', 'sig_3']);
  expect(a.memoryIds).toEqual(['mem_1', 'mem_2']);
  const sources = a.content.slice(a.content.indexOf('## Sources'));
  t.signals.forEach((s, i) => expect(sources).toContain(`- [S${i + 1}] ${s.title} — https://example.com/${s.id} (signal ${s.id})`));
  for (const line of ['- [M1] Refund policy (memory mem_1)', '- [M2] Tone for customers (memory mem_2)']) expect(sources).toContain(line);
  return a;
}

/** The lines of a markdown text that are sentences or list items, to find one said twice. */
function repeatedLines(content: string): string[] {
  const lines = content.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('- [S') && !l.startsWith('- [M'));
  return lines.filter((l, i) => lines.indexOf(l) !== i);
}

describe('built-in drafts shaped as their deliverable', () => {
  it('an email draft is an email: subject, greeting, body from the task, signals, memory and notes, a call to action, sign-off', async () => {
    const a = await draftOf('email');
    expect(a).toMatchObject({ kind: 'email', title: 'Email draft: Refund requests on annual plans' });
    const c = a.content;
    const email = c.slice(0, c.indexOf('\n---\n'));
    expect(email).toContain('**Subject:** Re: Refund requests on annual plans\n\nHello,\n\nThank you for getting in touch.\nCustomers ask for refunds on annual plans after the price change.');
    // The two copies of Acme's request are one point, cited with both signals.
    expect(email).toContain('What we have heard from you:\n\n- Refund request from Acme for annual plan. [S1, S2]\n- Checkout error for EU cards. [S3]');
    expect(email).toContain('Annual plans are refundable within 30 days of purchase. [M1]');
    expect(email).toContain('Here is what we propose: Offer a pro-rated refund, not a full one.');
    expect(email).toContain('Please reply to this email to let us know whether this works for you, or with any questions. As this is urgent, a reply today would help.');
    expect(email.trimEnd().endsWith('Best regards,\n[Your name]')).toBe(true);
    // What the reviewer checks stays below the email, not in it.
    expect(email).not.toContain('Answer every refund request within a day.');
    const review = c.slice(c.indexOf('## Before it goes out'), c.indexOf('## Sources'));
    expect(review).toContain('- **Goal:** Answer every refund request within a day.');
    expect(review).toContain('- Keep to the standing preference [M2] **Tone for customers**: Apologise once, then state the policy plainly.');
    expect(c).not.toContain('## What happened');
    expect(repeatedLines(c)).toEqual([]);
  });

  it('an email about what we saw (not a reply) says so, and asks without urgency', async () => {
    const a = await draftOf('email', { signals: [signal('sig_1', REPEATED, { kind: 'news' }), signal('sig_2', 'Refund request from Acme', { kind: 'news' }), signal('sig_3', 'Checkout error', { kind: 'news' })] });
    expect(a.content).toContain('**Subject:** Refund requests on annual plans\n\nHello,\n\nI am writing with an update.');
    expect(a.content).toContain('What we have seen:');
    expect(a.content).toContain('Please reply to this email with any questions, or if you would like to talk it through.\n');
  });

  it('a checklist is a checklist: boxes to tick, most pressing first, each cited', async () => {
    const a = await draftOf('checklist');
    expect(a).toMatchObject({ kind: 'checklist', title: 'Checklist: Refund requests on annual plans' });
    const list = a.content.slice(a.content.indexOf('## Checklist'), a.content.indexOf('## Context'));
    const boxes = list.split('\n').filter((l) => l.startsWith('- [ ] '));
    expect(boxes).toEqual([
      '- [ ] Follow the operator\'s direction: "Offer a pro-rated refund, not a full one."',
      '- [ ] Investigate the alert and confirm whether it is resolved: [S3] "Checkout error for EU cards". (today)',
      '- [ ] Reply to the message: [S1, S2] "Refund request from Acme for annual plan". (this week)',
      '- [ ] Keep to the standing preference [M2]: Tone for customers.',
      '- [ ] Confirm each signal above is handled, and say how in an operator note on the task.',
      '- [ ] Work through the checklist, then approve it; add an operator note for anything it missed.',
    ]);
    expect(a.content).toContain('**Done when:** Answer every refund request within a day.');
    expect(a.content).toContain('- [M1] **Refund policy**: Annual plans are refundable within 30 days of purchase.');
    expect(repeatedLines(a.content)).toEqual([]);
  });

  it('a plan has a goal and numbered steps, each with an owner (and when, where it is pressing)', async () => {
    const a = await draftOf('plan');
    expect(a).toMatchObject({ kind: 'plan', title: 'Plan: Refund requests on annual plans' });
    const c = a.content;
    expect(c).toContain('## Goal\n\nAnswer every refund request within a day.\n\nCustomers ask for refunds on annual plans after the price change.');
    const steps = c.slice(c.indexOf('## Steps'), c.indexOf('## Risks')).split('\n').filter((l) => /^\d+\. /.test(l));
    expect(steps).toEqual([
      '1. Follow the operator\'s direction: "Offer a pro-rated refund, not a full one." **Owner:** Operator.',
      '2. Investigate the alert and confirm whether it is resolved: [S3] "Checkout error for EU cards". **Owner:** On-call engineer. **When:** today.',
      '3. Reply to the message: [S1, S2] "Refund request from Acme for annual plan". **Owner:** Support. **When:** this week.',
      '4. Keep to the standing preference [M2]: Tone for customers. **Owner:** Everyone.',
      '5. Review the plan against the goal. Approve the plan, or add an operator note with the constraints it missed. **Owner:** Reviewer.',
    ]);
    expect(c).toContain('## Risks and what we know\n\n- [S3] Checkout error for EU cards (urgent priority)\n- [S1, S2] Refund request from Acme for annual plan (high priority)\n- [M1] Refund policy: Annual plans are refundable within 30 days of purchase.');
    expect(repeatedLines(c)).toEqual([]);
  });

  it('a summary says each thing once, however many signals repeat it', async () => {
    const a = await draftOf('summary', {
      summary: `${REPEATED}. ${REPEATED}!\n\nRelated signals:\n- ${REPEATED}`,
      signals: [
        signal('sig_1', REPEATED, { kind: 'news', detail: `${REPEATED}.` }),
        signal('sig_2', `${REPEATED}.`, { kind: 'news', detail: `${REPEATED}.` }),
        signal('sig_3', `Stripe raises its prices for European customers`, { kind: 'news', priority: 'high' }),
      ],
    });
    expect(a).toMatchObject({ kind: 'summary', title: 'Summary: Refund requests on annual plans' });
    const c = a.content;
    // Said once in what the summary tells; the steps and Sources name the signals it came from.
    expect(c.slice(0, c.indexOf('## What needs attention')).split(REPEATED).length - 1).toBe(1);
    expect(c).toContain(`## In short\n\n${REPEATED}. 3 signals, 1 distinct (2 repeat an earlier one).`);
    expect(c).toContain('## Key points\n\n- Annual plans are refundable within 30 days of purchase. [M1]');
    expect(repeatedLines(c)).toEqual([]);
  });

  it('a brief folds signals that repeat one statement into one cited line', async () => {
    const a = await draftOf('brief', { signals: [signal('sig_1', REPEATED, { kind: 'news' }), signal('sig_2', REPEATED, { kind: 'news' }), signal('sig_3', REPEATED, { kind: 'news', priority: 'high' })] });
    const happened = a.content.slice(a.content.indexOf('## What happened'), a.content.indexOf('## What it means'));
    expect(happened.split('\n').filter((l) => l.startsWith('- '))).toEqual([expect.stringMatching(/^- \[S1, S2, S3\] \*\*Stripe raises prices for European customers\*\* \(news, high, .*; said by 3 signals\)/)]);
    expect(repeatedLines(a.content)).toEqual([]);
  });
});
