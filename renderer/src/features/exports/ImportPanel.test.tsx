import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { ImportPanel, IMPORT_BODY_LIMIT } from './ImportPanel';

type ImportReport = Schema<'ImportReport'>;

beforeEach(() => useAuth.setState({ token: 't', status: 'signed-in' }));

const file = {
  format: 'desk.workspace-export',
  version: 1,
  exportedAt: '2026-03-09T18:00:00.000Z',
  profile: { name: 'Other desk' },
  tasks: [{ id: 'tsk_1' }],
  sources: [{ id: 'src_1', type: 'manual', label: 'Zapier' }],
  signals: [{ id: 'sig_1', kind: 'news', priority: 'normal', title: 'A', detail: '', createdAt: '2026-03-01T00:00:00.000Z' }],
  memory: [{ id: 'mem_1', kind: 'fact', title: 'M', content: 'c', createdAt: '2026-03-01T00:00:00.000Z', tags: ['x'] }],
};
const none = { duplicate: 0, invalid: 0 };
const report = (dryRun: boolean, over: Partial<ImportReport> = {}): ImportReport => ({
  dryRun,
  version: 1,
  exportedAt: file.exportedAt,
  added: { sources: 1, signals: 1, memory: 0 },
  skipped: { sources: none, signals: none, memory: { duplicate: 1, invalid: 0 } },
  skippedItems: [{ category: 'memory', index: 0, id: 'mem_1', reason: 'duplicate', field: null, message: 'a fact entry titled “M” created 2026-03-01T00:00:00.000Z is already here' }],
  unlinkedSignals: 0,
  ...over,
});

const choose = (content: string, name = 'desk-export.json') =>
  fireEvent.change(screen.getByLabelText('Export file'), { target: { files: [new File([content], name, { type: 'application/json' })] } });

describe('Settings > Data: import', () => {
  it('previews the file with a dry run, imports on confirm, and shows the final report', async () => {
    const desk = fakeFetch((call) => (call.path === '/api/v1/workspace/import' ? json(200, report((call.body as { dryRun: boolean }).dryRun)) : noFake(call)));
    renderWithApp(<ImportPanel />);
    await screen.findByLabelText('Export file');
    choose(JSON.stringify(file));
    const preview = await screen.findByRole('region', { name: 'Import preview' });
    expect(preview.textContent).toContain('Would add: 1 source, 1 signal, 0 memory entries.');
    expect(within(preview).getByRole('list', { name: 'Skipped' }).textContent).toBe('Memory: 1 already here, 0 invalid');
    expect(within(preview).getByRole('list', { name: 'Skipped items' }).textContent).toBe('memory #1 (already here): a fact entry titled “M” created 2026-03-01T00:00:00.000Z is already here');
    // Only what the import reads is uploaded; nothing is written yet.
    expect(desk.calls).toHaveLength(1);
    expect(desk.calls[0].body).toEqual({
      data: { format: file.format, version: 1, exportedAt: file.exportedAt, sources: file.sources, signals: file.signals, memory: file.memory },
      categories: { sources: true, signals: true, memory: true },
      dryRun: true,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const done = await screen.findByRole('region', { name: 'Import report' });
    expect(done.textContent).toContain('Added: 1 source, 1 signal, 0 memory entries.');
    expect(screen.queryByRole('region', { name: 'Import preview' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(desk.calls).toHaveLength(2);
    expect((desk.calls[1].body as { dryRun: boolean }).dryRun).toBe(false);
  });

  it('previews again without an unticked collection, and leaves it out of the upload', async () => {
    const desk = fakeFetch((call) => (call.path === '/api/v1/workspace/import' ? json(200, report(true)) : noFake(call)));
    renderWithApp(<ImportPanel />);
    await screen.findByLabelText('Export file');
    choose(JSON.stringify(file));
    await screen.findByRole('region', { name: 'Import preview' });
    fireEvent.click(within(screen.getByRole('group', { name: 'What to import' })).getByLabelText('Signals'));
    await waitFor(() => expect(desk.calls).toHaveLength(2));
    const body = desk.calls[1].body as { data: Record<string, unknown>; categories: Record<string, boolean> };
    expect(body.categories).toEqual({ sources: true, signals: false, memory: true });
    expect('signals' in body.data).toBe(false);
  });

  it('says what is wrong with a file that is not JSON, refused by the server, or too large, and sends nothing it should not', async () => {
    const desk = fakeFetch((call) =>
      call.path === '/api/v1/workspace/import'
        ? json(422, { error: 'validation_failed', message: 'data.version must be an export version this desk reads (1 to 1)', details: [{ field: 'data.version', message: 'must be an export version this desk reads (1 to 1)' }] })
        : noFake(call),
    );
    renderWithApp(<ImportPanel />);
    await screen.findByLabelText('Export file');
    choose('not json');
    expect((await screen.findByRole('alert')).textContent).toBe('This file is not JSON. Pick the file Data > Everything downloads (desk-export.json).');
    expect(desk.calls).toHaveLength(0);

    choose(JSON.stringify({ ...file, version: 7 }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('data.version must be an export version this desk reads (1 to 1)'));
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();

    const big = { ...file, signals: [{ ...file.signals[0], detail: 'x'.repeat(IMPORT_BODY_LIMIT) }] };
    choose(JSON.stringify(big));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^The chosen collections come to 64 MB; Desk takes at most 64 MB per import\./));
    expect(desk.calls).toHaveLength(1);
  });
});
