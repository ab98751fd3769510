import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { DAY_MS, MINUTE_MS } from '../../lib/time';
import { fixClock } from '../../testing/clock';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { useAuth } from '../../lib/auth';
import { renderAppAt } from '../../testing/render';

/** The UI's "now" in these tests (fixed in beforeEach), so relative times read the same on every run. */
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

const baseSource: Schema<'SourceView'> = {
  id: 'src_1',
  type: 'rss',
  label: 'Acme blog',
  url: 'https://acme.example/feed.xml',
  notes: null,
  status: 'connected',
  paused: false,
  pausedAt: null,
  pausedUntilAt: null,
  pollIntervalMinutes: 10,
  pollGating: { intervalMinutes: 15, isOverride: true, lastSyncedAt: iso(MINUTE_MS), nextPollAt: new Date(NOW + 12 * MINUTE_MS).toISOString(), isDueNow: false, minutesUntilDue: 12 },
  lastSyncedAt: iso(MINUTE_MS),
  lastPolledAt: iso(MINUTE_MS),
  lastErrorMessage: null,
  consecutiveFailures: 0,
  lastSignalAt: iso(20 * DAY_MS),
  quietnessAckedAt: null,
  quietnessAckExpiresAt: null,
  includeKeywords: [],
  excludeKeywords: [],
  createdAt: iso(40 * DAY_MS),
  updatedAt: iso(MINUTE_MS),
};

/** Just enough of the sources API for the page: one quiet feed whose ack the test toggles, and bulk rename. */
function fakeDesk() {
  let source = structuredClone(baseSource);
  const quiet = (): Schema<'QuietSource'> => ({
    sourceId: source.id,
    label: source.label,
    type: source.type,
    intervalMinutes: 15,
    lastSyncedAt: source.lastSyncedAt,
    lastSignalAt: source.lastSignalAt,
    quietSince: source.lastSignalAt!,
    quietForDays: 20,
    floorDays: 14,
    acked: source.quietnessAckedAt !== null,
    quietnessAckedAt: source.quietnessAckedAt,
    quietnessAckExpiresAt: source.quietnessAckExpiresAt,
  });
  return fakeFetch((call) => {
    const { method, path, body } = call;
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [source], total: 1, nextCursor: null });
    if (method === 'GET' && path === '/api/v1/sources/src_1') return json(200, source);
    if (method === 'GET' && path === '/api/v1/sources/src_old') return json(200, { ...source, id: 'src_old', label: 'Old newsletter' });
    if (method === 'GET' && path === '/api/v1/sources/quietness')
      return json(200, { workspaceCadenceMinutes: 30, cadenceFloorDays: 14, maxFloorDays: 90, ackDays: 7, sources: [quiet()] });
    if (method === 'GET' && path === '/api/v1/sources/cadence-overview')
      return json(200, {
        workspaceCadenceMinutes: 30,
        planFloorMinutes: 15,
        plan: 'free',
        perSource: [{ ...source.pollGating, sourceId: source.id, label: source.label, type: source.type, paused: false }],
      });
    if (method === 'GET' && path === '/api/v1/sources/scheduled-paused') return json(200, { sources: [] });
    if (method === 'POST' && path === '/api/v1/sources/src_1/quietness-ack') {
      source = { ...source, quietnessAckedAt: new Date(NOW).toISOString(), quietnessAckExpiresAt: new Date(NOW + 7 * DAY_MS).toISOString() };
      return json(200, source);
    }
    if (method === 'POST' && path === '/api/v1/sources/src_1/quietness-unack') {
      source = { ...source, quietnessAckedAt: null, quietnessAckExpiresAt: null };
      return json(200, source);
    }
    if (method === 'POST' && path === '/api/v1/sources/bulk-rename') {
      const b = body as Schema<'BulkRenameBody'>;
      const newLabel = source.label.replace(b.findText, b.replaceText);
      if (!b.preview) source = { ...source, label: newLabel };
      return json(200, { preview: Boolean(b.preview), matches: [{ sourceId: source.id, oldLabel: baseSource.label, newLabel }], skipped: [] });
    }
    if (method === 'PATCH' && path === '/api/v1/sources/src_1') {
      return json(422, { error: 'validation_failed', message: 'label: must not be empty', details: [{ field: 'label', message: 'must not be empty' }] });
    }
    if (method === 'GET' && path === '/api/v1/sources/src_1/ingest-tokens') return json(200, { ingestTokens: [] });
    if (method === 'POST' && path === '/api/v1/sources/src_1/ingest-tokens') {
      return json(201, { id: 'ing_1', sourceId: 'src_1', label: (body as { label?: string }).label ?? 'Acme blog', tokenHint: 'dski_…abcd', createdAt: '2026-03-10T12:00:00.000Z', lastUsedAt: null, token: 'dski_xyzabcd', webhookUrl: 'http://127.0.0.1:4477/api/webhooks/signals/dski_xyzabcd' });
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  fixClock(NOW);
  useAuth.setState({ token: 't', status: 'signed-in' });
  desk = fakeDesk();
});


/** The Sources page as its URL opens it, inside the app. */
const renderPage = (path = '/sources') => renderAppAt(path);

describe('SourcesPage', () => {
  it('shows the cadence and next poll of a feed, warns that it went quiet, and acks and unacks the warning', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Sources' });
    const row = within(table).getByText('Acme blog').closest('tr')!;
    expect(within(row).getByText('every 15 min (override)')).toBeTruthy();
    expect(within(row).getByText('in 12 min')).toBeTruthy();
    expect(within(row).getByText('Connected')).toBeTruthy();
    expect(within(row).getByText('1 minute ago')).toBeTruthy();
    expect(await within(row).findByText('Quiet 20 d')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain('Acme blog has gone quiet');

    const quietTable = screen.getByRole('table', { name: 'Quiet feeds' });
    expect(within(quietTable).getByText('quiet for 20 days (floor 14 days)')).toBeTruthy();
    fireEvent.click(within(quietTable).getByRole('button', { name: 'Ack' }));
    await waitFor(() => expect(within(quietTable).getByRole('button', { name: 'Unack' })).toBeTruthy());
    expect(within(quietTable).getByText(/^Muted until/)).toBeTruthy();
    expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/sources/src_1/quietness-ack')).toBe(true);
    // An acked feed no longer raises the page's warning.
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());

    fireEvent.click(within(quietTable).getByRole('button', { name: 'Unack' }));
    await waitFor(() => expect(within(quietTable).getByRole('button', { name: 'Ack' })).toBeTruthy());
    expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/sources/src_1/quietness-unack')).toBe(true);
  });

  it('renames the selected sources only after a preview of the new labels', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Acme blog' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rename…' }));
    const form = screen.getByRole('form', { name: 'Rename sources' });
    const apply = within(form).getByRole('button', { name: 'Apply rename' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Find'), { target: { value: 'blog' } });
    fireEvent.change(within(form).getByLabelText(/^Replace with/), { target: { value: 'news' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Preview rename' }));
    const preview = await within(form).findByRole('list', { name: 'Rename preview' });
    expect(preview.textContent).toContain('Acme blog → Acme news');
    expect(desk.calls.find((c) => c.path === '/api/v1/sources/bulk-rename')!.body).toEqual({ findText: 'blog', replaceText: 'news', caseSensitive: false, sourceIds: ['src_1'], preview: true });

    // Changing the input invalidates the preview: Apply waits for a new one.
    fireEvent.change(within(form).getByLabelText(/^Replace with/), { target: { value: 'notes' } });
    expect(apply.disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText(/^Replace with/), { target: { value: 'news' } });
    await waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    expect(await screen.findByText('Renamed 1 source.')).toBeTruthy();
    expect(desk.calls.filter((c) => c.path === '/api/v1/sources/bulk-rename').at(-1)!.body).toMatchObject({ preview: false, sourceIds: ['src_1'] });
    expect(await within(screen.getByRole('table', { name: 'Sources' })).findByText('Acme news')).toBeTruthy();
  });

  it('shows the API message next to the label field when a rename is refused', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Sources' });
    fireEvent.click(within(table).getByRole('button', { name: 'Manage' }));
    // Manage navigates to the source's URL, which opens its editor.
    const label = (await screen.findByLabelText('Label')) as HTMLInputElement;
    fireEvent.change(label, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(label.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('must not be empty')).toBeTruthy();
  });

  it('Manage gives the source a URL, and that URL opens its editor', async () => {
    const router = renderPage();
    const table = await screen.findByRole('table', { name: 'Sources' });
    fireEvent.click(within(table).getByRole('button', { name: 'Manage' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sources/src_1'));
    fireEvent.click(await within(table).findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sources'));
    expect(screen.queryByLabelText('Label')).toBeNull();
  });

  it("offers the source's own ingest URL in its editor, with why, shown once after creation", async () => {
    renderPage('/sources/src_1');
    const ingest = await screen.findByRole('region', { name: 'Push signals to this source' });
    expect(within(ingest).getByText('A leaked source URL can only push signals to that source; revoke it any time.')).toBeTruthy();
    expect(within(ingest).getByRole('link', { name: 'Settings › Integrations' })).toBeTruthy();
    fireEvent.change(within(ingest).getByLabelText('Used by'), { target: { value: 'Zapier' } });
    fireEvent.click(within(ingest).getByRole('button', { name: 'Create ingest URL' }));
    const url = await within(ingest).findByRole('textbox', { name: 'New ingest URL' });
    expect(url).toHaveProperty('value', 'http://127.0.0.1:4477/api/webhooks/signals/dski_xyzabcd');
    expect(desk.calls.find((c) => c.method === 'POST' && c.path === '/api/v1/sources/src_1/ingest-tokens')!.body).toEqual({ label: 'Zapier' });
  });

  it('a deep link opens that source: under its row when listed, else in a card of its own', async () => {
    renderPage('/sources/src_1');
    const label = (await screen.findByLabelText('Label')) as HTMLInputElement;
    expect(label.value).toBe('Acme blog');
    expect(label.closest('tr')!.id).toBe('source-editor-src_1');
    cleanup();

    renderPage('/sources/src_old');
    const card = await screen.findByRole('region', { name: 'Old newsletter' });
    expect((within(card).getByLabelText('Label') as HTMLInputElement).value).toBe('Old newsletter');
  });
});
