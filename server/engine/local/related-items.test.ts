import { describe, expect, it } from 'vitest';
import { cycleInput, signal } from '../../testing/fixtures/engine-input';
import { LocalEngine } from './index';
import { effectivePriority, priorityRule } from './triage';

/**
 * Related items, one task (issue 30, part 7): a product's release notes from one feed make few
 * tasks, and the incident, the deprecation, the price change and the security fix among them are
 * not "normal".
 */

const engine = new LocalEngine();
const feed = (id: string, title: string, detail = '') => signal(id, title, { kind: 'news', priority: 'normal', detail, sourceId: 'src_acme' });

const RELEASE_NOTES = [
  feed('sig_01', 'Acme Cloud 4.2 released', 'Faster dashboards and a new export dialog.'),
  feed('sig_02', 'Acme Cloud 4.2.1 patch release', 'Fixes the export dialog on Safari.'),
  feed('sig_03', 'Acme Cloud: dark mode for dashboards', 'Dark mode arrives in Acme Cloud dashboards.'),
  feed('sig_04', 'Acme Cloud 4.3 beta', 'Try the new workflow builder in Acme Cloud.'),
  feed('sig_05', 'Acme Cloud mobile app update', 'Offline mode for the Acme Cloud mobile app.'),
  feed('sig_06', 'Acme Cloud: new Slack integration', 'Send Acme Cloud alerts to Slack channels.'),
  feed('sig_07', 'Incident: Acme Cloud API outage in eu-west', 'Requests to the Acme Cloud API failed for 40 minutes.'),
  feed('sig_08', 'Acme Cloud 4.3 released', 'Workflow builder is generally available.'),
  feed('sig_09', 'Deprecation notice: Acme Cloud API v1', 'API v1 will be removed on 1 June; move to v2.'),
  feed('sig_10', 'Acme Cloud pricing changes from April', 'The Team plan price increases to $12 per seat.'),
  feed('sig_11', 'Acme Cloud 4.3.1 patch release', 'Fixes for the workflow builder.'),
  feed('sig_12', 'Acme Cloud: audit log export', 'Export the audit log of Acme Cloud as CSV.'),
  feed('sig_13', 'Acme Cloud security fix for SSO', 'A vulnerability in SSO login is fixed in 4.3.2.'),
  feed('sig_14', 'Acme Cloud 4.4 preview', 'Preview of Acme Cloud reports.'),
  feed('sig_15', 'Acme Cloud: faster search', 'Search in Acme Cloud is twice as fast.'),
];

describe('local engine: related items and priority', () => {
  it('turns fifteen release notes of one product into few tasks, the incident, deprecation, pricing and security ones apart and not normal', async () => {
    const d = await engine.runCycle(cycleInput({ newSignals: RELEASE_NOTES }));
    expect(d.newTasks.length).toBeLessThanOrEqual(6);
    const taskOf = (id: string) => d.newTasks.find((t) => t.signalIds.includes(id))!;
    expect(taskOf('sig_07').priority).toBe('urgent');
    expect(taskOf('sig_09').priority).toBe('high');
    expect(taskOf('sig_10').priority).toBe('high');
    expect(taskOf('sig_13').priority).toBe('high');
    // each of those stands apart from the ordinary notes, which share one task at normal priority
    for (const id of ['sig_07', 'sig_09', 'sig_10', 'sig_13']) expect(taskOf(id).signalIds).toEqual([id]);
    const ordinary = taskOf('sig_01');
    expect(ordinary.priority).toBe('normal');
    expect(ordinary.signalIds.length).toBeGreaterThanOrEqual(9);
    expect(d.triagedSignalIds).toHaveLength(15);
    // the rule is stated for the run record
    expect(d.explanation).toMatch(/^15 new signals: 0 joined open tasks, \d new tasks; \d+ of them grouped into \d tasks?; 4 signals raised in priority by what they say\./);
    expect(d.explanation).toMatch(/an incident or outage → urgent; a security issue → high; a deprecation → high; a price change → high/);
  });

  it('groups one source\'s signals on one topic within the window; other sources, or further apart in time, stay apart', async () => {
    // One shared word: too little for the same story, enough for one source's topic.
    const a = signal('sig_a', 'Acme 4.2 released', { kind: 'news', sourceId: 'src_acme', createdAt: '2026-03-10T12:00:00.000Z' });
    const b = signal('sig_b', 'Acme dark mode', { kind: 'news', sourceId: 'src_other', createdAt: '2026-03-10T12:00:00.000Z' });
    const c = signal('sig_c', 'Acme mobile app', { kind: 'news', sourceId: 'src_acme', createdAt: '2026-03-01T12:00:00.000Z' });
    const e = signal('sig_e', 'Acme search speed', { kind: 'news', sourceId: 'src_acme', createdAt: '2026-03-11T12:00:00.000Z' });
    const d = await engine.runCycle(cycleInput({ newSignals: [a, b, c, e] }));
    expect(d.newTasks.map((t) => t.signalIds)).toEqual([['sig_a', 'sig_e'], ['sig_b'], ['sig_c']]);
  });

  it('reads priority from what an item says, never lowering a given one', () => {
    expect(priorityRule({ title: 'Partial outage of the dashboard', detail: '' })?.priority).toBe('urgent');
    expect(priorityRule({ title: 'We are raising our prices', detail: '' })?.what).toBe('a price change');
    expect(priorityRule({ title: 'Node 18 reaches end-of-life', detail: '' })?.what).toBe('a deprecation');
    expect(priorityRule({ title: 'CVE-2026-1234 in the parser', detail: '' })?.what).toBe('a security issue');
    expect(priorityRule({ title: 'New dashboard themes', detail: 'Pricing page redesign.' })).toBeNull();
    expect(effectivePriority(signal('s', 'Deprecation of v1', { priority: 'urgent' }))).toBe('urgent');
    expect(effectivePriority(signal('s', 'Deprecation of v1', { priority: 'low' }))).toBe('high');
  });
});
