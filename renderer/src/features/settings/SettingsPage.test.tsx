import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../lib/auth';
import type { Schema } from '../../api/client';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderAppAt, renderWithApp } from '../../testing/render';
import { SettingsPage } from './SettingsPage';

const baseProfile: Schema<'WorkspaceProfile'> = {
  id: 'wsp_1',
  name: 'My desk',
  plan: 'free',
  timezone: 'UTC',
  ownerUserId: 'usr_1',
  loopState: 'on',
  pauseUntilAt: null,
  loopIntervalMinutes: 30,
  effectiveLoopIntervalMinutes: 30,
  planFloorMinutes: 15,
  approvalPolicy: { watchHours: 24, overdueHours: 72 },
  focusTags: [],
  staleTaskAutoArchiveDays: null,
  staleMemoryAutoArchiveDays: null,
  taskCostSpikeAction: null,
  sourceCostSpikeAction: null,
  sourceChronicSpikeAction: null,
  sourceChronicThresholdDays: 3,
  tagCostSpikeAction: null,
  dailyCostCapUsdCents: 50,
  digestEmail: null,
  createdAt: '2026-03-10T12:00:00.000Z',
  updatedAt: '2026-03-10T12:00:00.000Z',
};

/** Just enough of the workspace API for the page, with the server's own limits for the interval. */
function fakeDesk(overrides: Partial<Schema<'WorkspaceProfile'>> = {}) {
  let profile = { ...structuredClone(baseProfile), ...overrides };
  return fakeFetch((call) => {
    const { method, path, body } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, profile);
    if (method === 'GET' && path === '/api/v1/workspace/focus-history') {
      // Two pages of shifts: the current focus, then (after the cursor) the one before it.
      const shift = (id: string, tags: string[], current: boolean) => ({ id, tags, startedAt: '2026-03-01T12:00:00.000Z', durationMinutes: 90, current });
      if (call.query.get('cursor') === 'f2') return json(200, { sinceDays: 90, shifts: [shift('fs_1', ['beta'], false)], nextCursor: null });
      return json(200, { sinceDays: 90, shifts: [shift('fs_2', ['launch'], true)], nextCursor: 'f2' });
    }
    if (method === 'PATCH' && path === '/api/v1/workspace/loop-interval') {
      const minutes = (body as { loopIntervalMinutes: number }).loopIntervalMinutes;
      if (minutes < 1) return json(422, { error: 'validation_failed', message: 'loopIntervalMinutes: must be at least 1', details: [{ field: 'loopIntervalMinutes', message: 'must be at least 1' }] });
      profile = { ...profile, loopIntervalMinutes: minutes, effectiveLoopIntervalMinutes: Math.max(minutes, 15) };
      return json(200, { loopIntervalMinutes: minutes, effectiveLoopIntervalMinutes: profile.effectiveLoopIntervalMinutes, planFloorMinutes: 15, plan: 'free' });
    }
    if (method === 'PATCH' && path === '/api/v1/workspace/approval-policy') {
      profile = { ...profile, approvalPolicy: body as Schema<'ApprovalPolicy'> };
      return json(200, profile.approvalPolicy);
    }
    if (method === 'GET' && path === '/api/v1/backups') return json(200, { backups: [], folder: '/data/backups', kept: 7 });
    if (method === 'GET' && path === '/api/v1/workspace/members') return json(200, { members: [], invites: [] });
    if (method === 'GET' && path === '/api/v1/workspace/task-templates') return json(200, { templates: [] });
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  desk = fakeDesk();
});


const renderPage = () => renderWithApp(<SettingsPage />);

describe('SettingsPage', () => {
  it('shows the requested and effective loop interval with the plan floor', async () => {
    renderPage();
    const input = await screen.findByLabelText('Loop interval (minutes)');
    expect(input).toHaveProperty('value', '30');
    expect(screen.getByText(/Effective 30 min \(plan floor 15 on free\)/)).toBeTruthy();
  });

  it('shows the API error for a field next to that field, and clears it after a good save', async () => {
    renderPage();
    const input = await screen.findByLabelText('Loop interval (minutes)');
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.submit(input.closest('form')!);
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    const errorId = input.getAttribute('aria-describedby')!.split(' ')[0];
    expect(document.getElementById(errorId)?.textContent).toBe('must be at least 1');
    // The error sits inside the same field as the input.
    expect(input.closest('.field')!.contains(document.getElementById(errorId))).toBe(true);
    expect(input).toHaveProperty('value', '0');

    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.submit(input.closest('form')!);
    await screen.findByText(/Effective 15 min \(plan floor 15 on free\)/);
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('does not send a value that is not a whole number', async () => {
    renderPage();
    const input = await screen.findByLabelText('Loop interval (minutes)');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.submit(input.closest('form')!);
    expect(await screen.findByText('Enter a whole number of minutes.')).toBeTruthy();
    expect(desk.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('saves a preset as its hours and marks it chosen', async () => {
    renderPage();
    const group = await screen.findByRole('radiogroup', { name: 'Approval policy' });
    expect((within(group).getByRole('radio', { name: /Daily/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(group).getByRole('radio', { name: /Fast/ }));
    await waitFor(() => expect(desk.calls.find((c) => c.path === '/api/v1/workspace/approval-policy')?.body).toEqual({ watchHours: 4, overdueHours: 12 }));
    await waitFor(() => expect((within(group).getByRole('radio', { name: /Fast/ }) as HTMLInputElement).checked).toBe(true));
  });

  it('says the pause picker is in local time, and shows a scheduled pause in the workspace timezone too', async () => {
    desk = fakeDesk({ loopState: 'paused', pauseUntilAt: '2026-03-12T00:00:00.000Z', timezone: 'Asia/Tokyo' });
    renderPage();
    const picker = await screen.findByLabelText('Pause until');
    const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const hint = document.getElementById(picker.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toBe(`In your local time (${viewerZone}).`);
    const notice = screen.getByText(/Resumes by itself at/);
    expect(notice.textContent).toContain('Mar 12, 9:00 AM in Asia/Tokyo, the workspace timezone');
  });

  it('does not repeat the time when the workspace clock reads like the viewer\'s', async () => {
    const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    desk = fakeDesk({ loopState: 'paused', pauseUntilAt: '2026-03-12T00:00:00.000Z', timezone: viewerZone });
    renderPage();
    const notice = await screen.findByText(/Resumes by itself at/);
    expect(notice.textContent).not.toContain('workspace timezone');
  });

  it('loads older focus shifts with the cursor of the last page', async () => {
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Focus shifts' });
    expect(within(timeline).getByText('launch')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(timeline).findByText('beta');
    expect(desk.calls.filter((c) => c.path === '/api/v1/workspace/focus-history').at(-1)!.query.get('cursor')).toBe('f2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('offers "not set" for a spike action as what it does: alert only', async () => {
    renderPage();
    const select = (await screen.findByLabelText('Task spikes')) as HTMLSelectElement;
    expect(select.selectedOptions[0].textContent).toBe('Not set (alert only)');
  });

  it('a custom policy shows two hour inputs filled with the current values', async () => {
    renderPage();
    const group = await screen.findByRole('radiogroup', { name: 'Approval policy' });
    fireEvent.click(within(group).getByRole('radio', { name: /Custom/ }));
    expect(screen.getByLabelText('Watch after (hours)')).toHaveProperty('value', '24');
    expect(screen.getByLabelText('Overdue after (hours)')).toHaveProperty('value', '72');
    expect(desk.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it.each([
    ['members', 'Members', 'Members'],
    ['templates', 'Templates', 'Task templates'],
  ])('has a %s section with its own address: /settings/%s opens the page scrolled to it', async (id, link, heading) => {
    fakeDesk();
    useAuth.setState({ token: 't', status: 'signed-in' });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    try {
      renderAppAt(`/settings/${id}`);
      const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
      expect(within(nav).getByRole('link', { name: link }).getAttribute('href')).toBe(`/settings/${id}`);
      expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeTruthy();
      await waitFor(() => expect(scrolled.mock.contexts.map((el) => (el as Element).id)).toContain(id));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
      useAuth.setState({ token: null, status: 'no-token' });
    }
  });

  it('has a Backups section with its own address: /settings/backups opens the page scrolled to it', async () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    try {
      renderAppAt('/settings/backups');
      const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
      expect(within(nav).getByRole('link', { name: 'Backups' }).getAttribute('href')).toBe('/settings/backups');
      expect(await screen.findByRole('heading', { level: 2, name: 'Backups' })).toBeTruthy();
      await waitFor(() => expect(scrolled.mock.contexts.map((el) => (el as Element).id)).toContain('backups'));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
      useAuth.setState({ token: null, status: 'no-token' });
    }
  });
});
