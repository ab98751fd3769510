import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { aProfile } from '../runs/testing';
import { fakePrefs } from '../preferences/testing';
import { DigestSection } from './DigestSection';

const NOW = '2026-03-10T12:00:00.000Z'; // a Tuesday

const owner = { userId: 'usr_owner', name: 'Owner', role: 'owner' as const, address: 'ops@example.com', addressSource: 'digest_email' as const };
const ada = { userId: 'usr_ada', name: 'Ada', role: 'admin' as const, address: 'ada@example.com', addressSource: 'member_email' as const };
const gatingPrefs = { digestQuietWeekends: false, digestQuietHoursStart: null, digestQuietHoursEnd: null, digestPersonalSections: ['approvals', 'loop', 'spend', 'spikes', 'quiet-sources'] };

const config: Schema<'DigestConfig'> = {
  digestEmail: 'ops@example.com',
  timezone: 'UTC',
  delivery: 'outbox',
  localHour: 8,
  lastLocalHour: 18,
  intervalGateHours: 22,
  lastRunAt: null,
  nextRunAt: '2026-03-11T08:00:00.000Z',
  recipients: [
    { ...owner, prefs: { ...gatingPrefs, digestQuietWeekends: true } },
    { ...ada, prefs: gatingPrefs },
  ] as Schema<'DigestConfig'>['recipients'],
};

const sendOf = (r: typeof owner | typeof ada, localTime: string) => ({ ...r, outcome: 'would_send' as const, reason: 'ready' as const, detail: `Would send at ${localTime}` });

/** The digest endpoints of a desk whose owner keeps quiet weekends; Saturday 14 March mutes the owner. */
function fakeDigest(over: (call: FakeCall) => Response | undefined = () => undefined) {
  const prefs = fakePrefs({ userId: 'usr_owner' });
  const audit: Schema<'DigestAuditEntry'>[] = [
    { id: 'dga_1', createdAt: '2026-03-10T08:00:00.000Z', detail: 'Daily digest sent to ops@example.com (outbox)', outcome: 'would_send', recipientLabel: 'Owner', recipientEmail: 'ops@example.com', userId: 'usr_owner', trigger: 'schedule', reason: 'ready', delivery: 'outbox', subject: 'Desk digest' },
  ];
  const fake = fakeFetch((call) => {
    const answered = over(call) ?? prefs.handle(call);
    if (answered) return answered;
    const { method, path, query } = call;
    const simulated = query.get('simulatedDate');
    if (simulated === '2026-09-01T08:00') return json(422, { error: 'validation_failed', message: 'simulatedDate must be within 60 days of now, either way', details: [{ field: 'simulatedDate', message: 'must be within 60 days of now, either way' }] });
    const saturday = simulated?.startsWith('2026-03-14') ?? false;
    const localTime = saturday ? 'Sat 14 Mar 2026 08:00' : 'Tue 10 Mar 2026 12:00';
    if (method === 'GET' && path === '/api/v1/workspace/digest-config') return json(200, config);
    if (method === 'GET' && path === '/api/v1/workspace/digest-recipients-gating') {
      return json(200, {
        at: saturday ? '2026-03-14T08:00:00.000Z' : NOW,
        localTime,
        timezone: 'UTC',
        simulated: simulated !== null,
        intervalGate: { lastRunAt: null, opensAt: null, open: true },
        recipients: [saturday ? { ...owner, outcome: 'muted', reason: 'quiet_weekend', detail: `Muted: ${localTime} is a weekend and quiet weekends are on` } : sendOf(owner, localTime), sendOf(ada, localTime)],
      });
    }
    if (method === 'GET' && path === '/api/v1/workspace/digest-preview') {
      const who = query.get('userId') === 'usr_ada' ? ada : owner;
      return json(200, {
        recipient: who,
        subject: `Desk digest for ${who.name}: 2 approvals waiting`,
        html: `<h1>Good morning ${who.name}</h1><p>2 approvals waiting</p>`,
        text: `Good morning ${who.name}\n2 approvals waiting`,
        gating: { at: NOW, localTime, simulated: simulated !== null, outcome: 'would_send', reason: 'ready', detail: `Would send at ${localTime}` },
      });
    }
    if (method === 'POST' && path === '/api/v1/workspace/digest-preview') {
      audit.unshift({ id: 'dga_2', createdAt: NOW, detail: 'Preview sent to ops@example.com (outbox)', outcome: 'would_send', recipientLabel: 'Owner', recipientEmail: 'ops@example.com', userId: 'usr_owner', trigger: 'preview', reason: 'ready', delivery: 'outbox', subject: 'Desk digest for Owner: 2 approvals waiting' });
      return json(200, { recipient: owner, outcome: 'would_send', reason: 'ready', detail: 'Preview sent to ops@example.com (outbox)', subject: 'Desk digest for Owner: 2 approvals waiting', delivery: 'outbox', error: null, auditId: 'dga_2' });
    }
    if (method === 'GET' && path === '/api/v1/workspace/digest-audit') return json(200, { entries: audit, nextCursor: null });
    return noFake(call);
  });
  return { ...fake, prefs };
}

beforeEach(() => {
  fixClock(NOW);
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});

const renderSection = () => renderWithApp(<DigestSection profile={aProfile({ timezone: 'UTC', digestEmail: 'ops@example.com' })} />);

describe('Settings > Digest', () => {
  it('shows how it goes out and what it decides for each recipient, now and on a simulated day', async () => {
    const { calls } = fakeDigest();
    renderSection();
    expect(await screen.findByText(/written as an \.eml file to the outbox folder/)).toBeTruthy();
    expect(screen.getByText(/daily at 08:00 UTC \(or later that day until 18:00 if the desk was off\), at most once every 22 hours/)).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Digest recipients' });
    const rows = () => within(screen.getByRole('table', { name: 'Digest recipients' })).getAllByRole('row').slice(1);
    expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining('Would send'), expect.stringContaining('Would send')]);
    expect(within(table).getByText('ops@example.com')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Another day' }));
    // Today at 08:00 first (when the digest goes out), then the day picked.
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/digest-recipients-gating') && c.query.get('simulatedDate') === '2026-03-10T08:00')).toBe(true));
    const day = screen.getByLabelText('Day');
    expect(day.getAttribute('min')).toBe('2026-01-09');
    expect(day.getAttribute('max')).toBe('2026-05-09');
    fireEvent.change(day, { target: { value: '2026-03-14' } });
    await waitFor(() => expect(rows()[0].textContent).toContain('Quiet weekend'));
    expect(rows()[0].textContent).toContain('Muted: Sat 14 Mar 2026 08:00 is a weekend and quiet weekends are on');
    expect(rows()[1].textContent).toContain('Would send');
    expect(screen.getByText(/Sat 14 Mar 2026 08:00/, { selector: 'strong' })).toBeTruthy();

    // A day the desk refuses: its message next to the picker.
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-09-01' } });
    await waitFor(() => expect(screen.getByLabelText('Day').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('must be within 60 days of now, either way').length).toBeGreaterThan(0);
  });

  it('previews exactly what a recipient would get, in a sandboxed frame or as plain text', async () => {
    const { calls } = fakeDigest();
    renderSection();
    const frame = (await screen.findByTitle('Digest preview for Owner')) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe('<h1>Good morning Owner</h1><p>2 approvals waiting</p>');
    expect(screen.getByText('Desk digest for Owner: 2 approvals waiting')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/digest-preview'))!.query.get('format')).toBe('json');

    fireEvent.change(screen.getByRole('combobox', { name: 'Preview for' }), { target: { value: 'usr_ada' } });
    expect(await screen.findByTitle('Digest preview for Ada')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/digest-preview') && c.query.get('userId') === 'usr_ada')).toBe(true);
    expect(screen.getByText('<ada@example.com>')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Plain text' }));
    expect(screen.getByLabelText('Plain-text digest for Ada').textContent).toBe('Good morning Ada\n2 approvals waiting');
    // Rendering previews sends nothing.
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends me a preview now, says where it went, and the audit shows it', async () => {
    const { calls } = fakeDigest();
    renderSection();
    const audit = await screen.findByRole('table', { name: 'Digest audit' });
    expect(within(audit).getAllByRole('row')).toHaveLength(2);
    expect(within(audit).getByText('Daily run')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Send me a preview now' }));
    expect(await screen.findByText(/“Desk digest for Owner: 2 approvals waiting” written to the outbox folder/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ userId: 'usr_owner' });
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Digest audit' })).getAllByRole('row')).toHaveLength(3));
    expect(within(screen.getByRole('table', { name: 'Digest audit' })).getByText('Preview sent')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'Audit window' }), { target: { value: '365' } });
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/digest-audit') && c.query.get('sinceDays') === '365')).toBe(true));
  });

  it('a send the desk refuses shows its reason', async () => {
    fakeDigest((call) =>
      call.method === 'POST' && call.path.endsWith('/digest-preview')
        ? json(422, { error: 'role_not_permitted', message: 'The digest goes to owners and admins only; userId is a editor', details: [{ field: 'userId', message: 'is a editor' }] })
        : undefined,
    );
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Send me a preview now' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The digest goes to owners and admins only; userId is a editor');
  });

  it('my quiet weekends, quiet hours and sections are saved to my preferences and the decisions are read again', async () => {
    const { calls, prefs } = fakeDigest();
    renderSection();
    await screen.findByRole('table', { name: 'Digest recipients' });
    const gatingReads = () => calls.filter((c) => c.path.endsWith('/digest-recipients-gating')).length;
    const before = gatingReads();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Mute my digest on weekends' }));
    await waitFor(() => expect(prefs.current().digestQuietWeekends).toBe(true));
    await waitFor(() => expect(gatingReads()).toBeGreaterThan(before));

    fireEvent.click(screen.getByRole('checkbox', { name: 'Keep quiet hours' }));
    await waitFor(() => expect(prefs.current().digestQuietHoursStart).toBe(22));
    expect(prefs.current().digestQuietHoursEnd).toBe(7);
    const until = await screen.findByRole('combobox', { name: 'Quiet hours until' });
    // The end cannot equal the start.
    expect(within(until).queryByRole('option', { name: '22:00' })).toBeNull();
    fireEvent.change(until, { target: { value: '6' } });
    await waitFor(() => expect(prefs.current().digestQuietHoursEnd).toBe(6));
    expect(prefs.puts.at(-1)).toEqual({ digestQuietHoursEnd: 6 });

    fireEvent.click(screen.getByRole('checkbox', { name: /Cost spikes/ }));
    await waitFor(() => expect(prefs.current().digestPersonalSections).toEqual(['approvals', 'loop', 'spend', 'quiet-sources']));
  });
});
