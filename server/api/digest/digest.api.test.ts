import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { beforeEach, describe, expect, it } from 'vitest';
import { DIGEST_JOB } from '../../jobs/digest-jobs';
import { dbFingerprint } from '../../testing/db-fingerprint';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { addMember, setTimezone } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * API tests of the daily digest without SMTP (issue 15): mails are .eml files in the outbox.
 * The workspace is in New York; the desk's clock starts at Tue 10 Mar 2026 08:00 EDT.
 */

const shared = useTestDesk();
let desk: TestDesk;
let owner: string;

const outbox = () => path.join(desk.dataDir, 'outbox');
const outboxFiles = () => (fs.existsSync(outbox()) ? fs.readdirSync(outbox()).sort() : []);

beforeEach(async () => {
  desk = shared.desk;
  fs.rmSync(outbox(), { recursive: true, force: true });
  owner = (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
  await setTimezone(desk, 'America/New_York');
  expect((await desk.api('PATCH', '/api/v1/workspace/digest-email', { digestEmail: 'ops@example.com' })).status).toBe(200);
  await addMember(desk, 'usr_ad', 'Ada Admin', 'admin');
  await desk.services.db.updateTable('users').set({ email: 'ada@example.com' }).where('id', '=', 'usr_ad').execute();
  await addMember(desk, 'usr_ed', 'Ed Editor', 'editor');
});

async function putPrefs(body: Record<string, unknown>, userId?: string) {
  const res = await desk.api('PUT', `/api/v1/workspace/dashboard-prefs${userId ? `?userId=${userId}` : ''}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function audit(query = '') {
  const res = await desk.api('GET', `/api/v1/workspace/digest-audit${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries as { trigger: string; userId: string; outcome: string; reason: string; delivery: string | null; detail: string; recipientLabel: string; subject: string | null }[];
}

async function events(name: string) {
  const rows = await desk.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('createdAt').execute();
  return rows.map((r) => JSON.parse(r.payload).data);
}

const runJob = () => desk.services.scheduler.runNow(DIGEST_JOB);

describe('digest config and gating', () => {
  it('digest-config lists owners and admins with their address and digest preferences', async () => {
    await putPrefs({ digestQuietWeekends: true, digestPersonalSections: ['approvals', 'spend'] }, 'usr_ad');
    const res = await desk.api('GET', '/api/v1/workspace/digest-config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      digestEmail: 'ops@example.com',
      timezone: 'America/New_York',
      delivery: 'outbox',
      localHour: 8,
      lastLocalHour: 18,
      intervalGateHours: 22,
      lastRunAt: null,
      nextRunAt: '2026-03-10T12:00:00.000Z',
      recipients: [
        {
          userId: owner,
          name: expect.any(String),
          role: 'owner',
          address: 'ops@example.com',
          addressSource: 'digest_email',
          prefs: { digestQuietWeekends: false, digestQuietHoursStart: null, digestQuietHoursEnd: null, digestPersonalSections: ['approvals', 'loop', 'spend', 'spikes', 'quiet-sources'] },
        },
        { userId: 'usr_ad', name: 'Ada Admin', role: 'admin', address: 'ada@example.com', addressSource: 'member_email', prefs: { digestQuietWeekends: true, digestQuietHoursStart: null, digestQuietHoursEnd: null, digestPersonalSections: ['approvals', 'spend'] } },
      ],
    });
  });

  it('recipients-gating follows each recipient on a simulated weekend, quiet hours and the DST change', async () => {
    await putPrefs({ digestQuietWeekends: true }, 'usr_ad');
    await putPrefs({ digestQuietHoursStart: 22, digestQuietHoursEnd: 7 });
    const gating = async (simulatedDate: string) => {
      const res = await desk.api('GET', `/api/v1/workspace/digest-recipients-gating?simulatedDate=${encodeURIComponent(simulatedDate)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // Sunday 8 March (the DST day), 08:00 EDT.
    const sunday = await gating('2026-03-08');
    expect(sunday).toMatchObject({ at: '2026-03-08T12:00:00.000Z', localTime: 'Sun 8 Mar 2026 08:00', simulated: true, intervalGate: { lastRunAt: null, opensAt: null, open: true } });
    expect(sunday.recipients.map((r: { userId: string; outcome: string; reason: string }) => [r.userId, r.outcome, r.reason])).toEqual([
      [owner, 'would_send', 'ready'],
      ['usr_ad', 'muted', 'quiet_weekend'],
    ]);
    // 06:30 EDT that morning: the owner's quiet hours (22-7), Ada's weekend.
    const early = await gating('2026-03-08T10:30:00Z');
    expect(early.recipients.map((r: { reason: string }) => r.reason)).toEqual(['quiet_hours', 'quiet_weekend']);
    expect(early.recipients[0].detail).toBe('Muted: Sun 8 Mar 2026 06:30 is within quiet hours 22:00-07:00');
    // Monday: both send. Without simulatedDate: now (Tue 08:00 EDT).
    expect((await gating('2026-03-09T12:00:00Z')).recipients.map((r: { outcome: string }) => r.outcome)).toEqual(['would_send', 'would_send']);
    const now = (await desk.api('GET', '/api/v1/workspace/digest-recipients-gating')).body;
    expect(now).toMatchObject({ at: '2026-03-10T12:00:00.000Z', simulated: false });
    // November's change: 06:30 EST is 11:30 UTC (quiet), 07:00 EST is 12:00 UTC.
    desk.clock.set('2026-10-20T12:00:00.000Z');
    expect((await gating('2026-11-01T11:30:00Z')).recipients[0].reason).toBe('quiet_hours');
    expect((await gating('2026-11-02T12:00:00Z')).recipients[0].reason).toBe('ready');
  });

  it('an admin without an address is muted no_address; the owner falls back to their own email', async () => {
    await desk.services.db.updateTable('users').set({ email: null }).where('id', '=', 'usr_ad').execute();
    await desk.services.db.updateTable('users').set({ email: 'owner@example.com' }).where('id', '=', owner).execute();
    expect((await desk.api('PATCH', '/api/v1/workspace/digest-email', { digestEmail: null })).status).toBe(200);
    const res = await desk.api('GET', '/api/v1/workspace/digest-recipients-gating');
    expect(res.body.recipients.map((r: { address: string | null; addressSource: string | null; reason: string }) => [r.address, r.addressSource, r.reason])).toEqual([
      ['owner@example.com', 'member_email', 'ready'],
      [null, null, 'no_address'],
    ]);
  });

  it('a change of an owner or admin digest preference is recorded as a gating change; an editor is not a recipient', async () => {
    await putPrefs({ digestQuietHoursStart: 7, digestQuietHoursEnd: 9 }, 'usr_ad');
    await putPrefs({ digestQuietWeekends: true }, 'usr_ed');
    await putPrefs({ density: 'compact', densityUpdatedAt: null }, 'usr_ad'); // not a digest field
    const entries = await audit();
    expect(entries).toEqual([
      expect.objectContaining({
        trigger: 'preferences',
        userId: 'usr_ad',
        recipientLabel: 'Ada Admin',
        outcome: 'muted',
        reason: 'quiet_hours',
        detail: 'Preferences changed (quiet weekends off, quiet hours 7:00-9:00, 5 sections): muted now (Tue 10 Mar 2026 08:00 is within quiet hours 07:00-09:00)',
      }),
    ]);
  });
});

describe('digest preview', () => {
  it('GET renders json and html for any date without sending or logging anything', async () => {
    await insertArtifactRow(desk, { title: 'Reply to <the> 2-star review', readyAt: '2026-03-07T12:00:00.000Z' });
    await putPrefs({ digestPersonalSections: ['approvals', 'loop'] }, 'usr_ad');
    const before = await dbFingerprint(desk.services.db);
    const res = await desk.api('GET', '/api/v1/workspace/digest-preview?userId=usr_ad&simulatedDate=2026-03-08');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      recipient: { userId: 'usr_ad', name: 'Ada Admin', role: 'admin', address: 'ada@example.com', addressSource: 'member_email' },
      subject: '1 approval waits · Desk digest for Sun 8 Mar',
      gating: { at: '2026-03-08T12:00:00.000Z', localTime: 'Sun 8 Mar 2026 08:00', simulated: true, outcome: 'would_send', reason: 'ready' },
    });
    expect(res.body.html).toContain('Reply to &lt;the&gt; 2-star review');
    expect(res.body.html).toContain('overdue');
    expect(res.body.html).toContain('What the desk did');
    expect(res.body.html).not.toContain('Cost spikes'); // Ada left that section out
    expect(res.body.text).toContain('- [overdue] Reply to <the> 2-star review');
    const html = await desk.api('GET', '/api/v1/workspace/digest-preview?format=html');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.body).toMatch(/^<!DOCTYPE html>/);
    expect(html.body).toContain('Cost spikes'); // the owner keeps every section
    expect(await dbFingerprint(desk.services.db)).toEqual(before);
    expect(outboxFiles()).toEqual([]);
  });

  it('POST sends a one-shot digest as an .eml a mail client opens, recorded in the audit', async () => {
    await insertArtifactRow(desk);
    await insertArtifactRow(desk);
    const res = await desk.api('POST', '/api/v1/workspace/digest-preview', { userId: 'usr_ad' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'would_send', reason: 'ready', subject: '2 approvals wait · Desk digest for Tue 10 Mar', delivery: 'outbox', error: null, auditId: expect.stringMatching(/^dga_/) });
    const files = outboxFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^20260310T120000Z-\d{4}\.eml$/);
    const parsed = await simpleParser(fs.readFileSync(path.join(outbox(), files[0])));
    expect(parsed.subject).toBe('2 approvals wait · Desk digest for Tue 10 Mar');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('ada@example.com');
    expect(parsed.from?.text).toBe('"Desk digest" <ops@example.com>');
    expect(parsed.html).toContain('Waiting for your decision');
    expect(parsed.text).toContain('WAITING FOR YOUR DECISION');
    expect(await audit()).toEqual([expect.objectContaining({ trigger: 'preview', userId: 'usr_ad', outcome: 'would_send', delivery: 'outbox', subject: '2 approvals wait · Desk digest for Tue 10 Mar' })]);
    expect(await events('digest.sent')).toEqual([{ trigger: 'preview', userId: 'usr_ad', recipientLabel: 'Ada Admin', subject: '2 approvals wait · Desk digest for Tue 10 Mar', delivery: 'outbox', approvalsWaiting: 2 }]);
    // It bypasses the 22-hour gate and does not move it: the scheduled digest still goes out today.
    expect((await desk.api('GET', '/api/v1/workspace/digest-config')).body.lastRunAt).toBeNull();
  });

  it('POST honours the recipient preferences exactly as production: muted now means nothing is sent', async () => {
    await putPrefs({ digestQuietHoursStart: 8, digestQuietHoursEnd: 9 });
    const res = await desk.api('POST', '/api/v1/workspace/digest-preview', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recipient: { userId: owner }, outcome: 'muted', reason: 'quiet_hours', subject: null, delivery: null });
    expect(outboxFiles()).toEqual([]);
    expect((await audit())[0]).toMatchObject({ trigger: 'preview', outcome: 'muted', reason: 'quiet_hours' });
    expect(await events('digest.muted')).toEqual([{ trigger: 'preview', userId: owner, recipientLabel: expect.any(String), reason: 'quiet_hours' }]);
  });

  it('rejects a recipient who is not an owner or admin, bad formats and dates, changing nothing', async () => {
    const P = '/api/v1/workspace/digest-preview';
    await expectRejectedUnchanged(desk, { method: 'POST', path: P, body: { userId: 'usr_ed' } }, { field: 'userId', error: 'role_not_permitted' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: P, body: { userId: 'usr_nobody' } }, { field: 'userId', error: 'validation_failed' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${P}?userId=usr_ed` }, { field: 'userId', error: 'role_not_permitted' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${P}?format=xml` }, { field: 'format' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${P}?simulatedDate=2026-05-10` }, { field: 'simulatedDate' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${P}?simulatedDate=2026-01-08T00:00:00Z` }, { field: 'simulatedDate' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${P}?simulatedDate=soon` }, { field: 'simulatedDate' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/digest-recipients-gating?simulatedDate=2026-06-01' }, { field: 'simulatedDate' });
    for (const q of ['sinceDays=0', 'sinceDays=366', 'sinceDays=1.5', 'limit=0', 'limit=501', 'cursor=nope']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/workspace/digest-audit?${q}` }, { field: q.split('=')[0] });
    }
    expect(outboxFiles()).toEqual([]);
  });
});

describe('the scheduled digest', () => {
  it('runs from 08:00 workspace time once a day; approvals waiting qualify it even with nothing new', async () => {
    await insertArtifactRow(desk, { readyAt: '2026-03-09T12:00:00.000Z', createdAt: '2026-03-09T12:00:00.000Z' });
    desk.clock.set('2026-03-10T11:59:00.000Z'); // 07:59 EDT
    await runJob();
    expect(await audit()).toEqual([]);
    desk.clock.set('2026-03-10T12:00:00.000Z');
    await runJob();
    const first = await audit();
    expect(first.map((e) => [e.trigger, e.userId, e.outcome, e.delivery])).toEqual(
      expect.arrayContaining([
        ['schedule', owner, 'would_send', 'outbox'],
        ['schedule', 'usr_ad', 'would_send', 'outbox'],
      ]),
    );
    expect(outboxFiles()).toHaveLength(2);
    const run = await desk.services.db.selectFrom('activity').select(['detail']).where('kind', '=', 'digest.run').execute();
    expect(run).toHaveLength(1);
    expect(run[0].detail).toMatch(/^Daily digest for 2026-03-10: .*sent \(outbox\); Ada Admin: sent \(outbox\)$/);
    // Later the same day: nothing more.
    desk.clock.set('2026-03-10T22:00:00.000Z');
    await runJob();
    expect(await audit()).toHaveLength(2);
    // Next morning: no new signal, no cycle, but the output still waits.
    desk.clock.set('2026-03-11T12:00:00.000Z');
    await runJob();
    expect((await audit()).filter((e) => e.outcome === 'would_send')).toHaveLength(4);
    expect((await desk.api('GET', '/api/v1/workspace/digest-config')).body).toMatchObject({ lastRunAt: '2026-03-11T12:00:00.000Z', nextRunAt: '2026-03-12T12:00:00.000Z' });
  });

  it('the 22-hour gate holds a late run from doubling up the next morning', async () => {
    await insertArtifactRow(desk);
    desk.clock.set('2026-03-10T20:00:00.000Z'); // the desk started late: 16:00 EDT
    await runJob();
    expect(await audit()).toHaveLength(2);
    desk.clock.set('2026-03-11T12:00:00.000Z'); // 08:00 EDT, 16 hours later
    await runJob();
    expect(await audit()).toHaveLength(2);
    const gating = (await desk.api('GET', '/api/v1/workspace/digest-recipients-gating')).body;
    expect(gating.intervalGate).toEqual({ lastRunAt: '2026-03-10T20:00:00.000Z', opensAt: '2026-03-11T18:00:00.000Z', open: false });
    expect((await desk.api('GET', '/api/v1/workspace/digest-config')).body.nextRunAt).toBe('2026-03-11T18:00:00.000Z');
    desk.clock.set('2026-03-11T18:00:00.000Z');
    await runJob();
    expect(await audit()).toHaveLength(4);
  });

  it('mutes per recipient: a quiet weekend, and nothing to report', async () => {
    await putPrefs({ digestQuietWeekends: true }, 'usr_ad');
    await insertArtifactRow(desk);
    desk.clock.set('2026-03-14T13:00:00.000Z'); // Saturday 09:00 EDT
    await runJob();
    const sat = (await audit('?limit=10')).filter((e) => e.trigger === 'schedule');
    expect(sat.map((e) => [e.userId, e.outcome, e.reason])).toEqual(
      expect.arrayContaining([
        [owner, 'would_send', 'ready'],
        ['usr_ad', 'muted', 'quiet_weekend'],
      ]),
    );
    expect(await events('digest.muted')).toEqual([{ trigger: 'schedule', userId: 'usr_ad', recipientLabel: 'Ada Admin', reason: 'quiet_weekend' }]);
    // Decide the output: nothing waits and the desk did nothing since Saturday's digest.
    await desk.services.db.updateTable('artifacts').set({ status: 'approved', decidedAt: '2026-03-14T14:00:00.000Z' }).execute();
    desk.clock.set('2026-03-16T12:00:00.000Z'); // Monday 08:00 EDT
    await runJob();
    desk.clock.set('2026-03-17T12:00:00.000Z');
    await runJob();
    const tue = (await audit()).filter((e) => e.trigger === 'schedule').slice(0, 2);
    expect(tue.map((e) => e.reason)).toEqual(['nothing_to_report', 'nothing_to_report']);
  });

  it('08:00 follows the workspace clock across both DST changes (23 and 25 hours apart, both past the gate)', async () => {
    await insertArtifactRow(desk);
    const ranAt = async () => (await desk.api('GET', '/api/v1/workspace/digest-config')).body.lastRunAt;
    for (const [at, expected] of [
      ['2026-03-07T12:59:00.000Z', null], // Sat 07:59 EST
      ['2026-03-07T13:00:00.000Z', '2026-03-07T13:00:00.000Z'], // Sat 08:00 EST
      ['2026-03-08T11:59:00.000Z', '2026-03-07T13:00:00.000Z'], // Sun 07:59 EDT
      ['2026-03-08T12:00:00.000Z', '2026-03-08T12:00:00.000Z'], // Sun 08:00 EDT, 23 h later
      ['2026-10-31T12:00:00.000Z', '2026-10-31T12:00:00.000Z'], // Sat 08:00 EDT
      ['2026-11-01T12:00:00.000Z', '2026-10-31T12:00:00.000Z'], // Sun 07:00 EST
      ['2026-11-01T13:00:00.000Z', '2026-11-01T13:00:00.000Z'], // Sun 08:00 EST, 25 h later
    ] as const) {
      desk.clock.set(at);
      await runJob();
      expect(await ranAt(), at).toBe(expected);
    }
  });

  it('POST to a recipient without an address is muted no_address, nothing sent', async () => {
    await desk.services.db.updateTable('users').set({ email: null }).where('id', '=', 'usr_ad').execute();
    const res = await desk.api('POST', '/api/v1/workspace/digest-preview', { userId: 'usr_ad' });
    expect(res.body).toMatchObject({ outcome: 'muted', reason: 'no_address', delivery: null });
    expect(outboxFiles()).toEqual([]);
  });

  it('the audit window and paging', async () => {
    await insertArtifactRow(desk);
    await runJob();
    desk.clock.set('2026-04-20T12:00:00.000Z');
    await runJob();
    expect(await audit()).toHaveLength(2); // the March run is past 30 days
    expect(await audit('?sinceDays=60')).toHaveLength(4);
    const page = await desk.api('GET', '/api/v1/workspace/digest-audit?sinceDays=60&limit=3');
    expect(page.body.entries).toHaveLength(3);
    const next = await desk.api('GET', `/api/v1/workspace/digest-audit?sinceDays=60&limit=3&cursor=${page.body.nextCursor}`);
    expect(next.body.entries).toHaveLength(1);
    expect(next.body.nextCursor).toBeNull();
  });
});
