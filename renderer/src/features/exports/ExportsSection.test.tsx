import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { filenameOf } from './download';
import { ExportsSection } from './ExportsSection';


const csv = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  new Response(body, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', ...headers } });

let saved: { name: string; href: string }[];
let blobs: Blob[];
beforeEach(() => {
  useAuth.setState({ token: 'tok-export', status: 'signed-in' });
  saved = [];
  blobs = [];
  // The test DOM has no object URLs nor downloads: record what would be saved.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:desk/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
});
afterEach(() => vi.restoreAllMocks());

const rowOf = async (title: string) => (await screen.findByRole('heading', { name: title, level: 3 })).closest('.setting') as HTMLElement;

describe('Settings > Data: exports', () => {
  it('downloads an export with the bearer token in the chosen format and saves it under the server name', async () => {
    const desk = fakeFetch((call) =>
      call.path === '/api/v1/workspace/sources-export'
        ? call.query.get('format') === 'json'
          ? new Response(JSON.stringify({ rows: [], total: 0, capped: false }), { headers: { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="sources.json"; filename*=UTF-8\'\'sources.json', 'x-export-total': '0', 'x-export-capped': 'false' } })
          : csv('id,label\r\nsrc_1,Feed\r\n', { 'content-disposition': 'attachment; filename="sources.csv"', 'x-export-total': '1', 'x-export-capped': 'false' })
        : noFake(call),
    );
    renderWithApp(<ExportsSection />);
    const row = await rowOf('Sources');
    fireEvent.click(within(row).getByRole('button', { name: 'Download sources' }));
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe('Saved sources.csv (1 row, 22 B)'));
    expect(saved).toEqual([{ name: 'sources.csv', href: 'blob:desk/1' }]);
    expect(blobs[0].size).toBe(22);
    expect(desk.calls[0].authorization).toBe('Bearer tok-export');
    expect(desk.calls[0].query.get('format')).toBe('csv');
    expect(within(row).queryByRole('note')).toBeNull();

    fireEvent.change(within(row).getByRole('combobox', { name: 'Sources format' }), { target: { value: 'json' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Download sources' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['sources.csv', 'sources.json']));
    expect(desk.calls[1].query.get('format')).toBe('json');
  });

  it('shows the bytes received while a large export streams in, then the capped notice', async () => {
    let push!: (text: string) => void;
    let end!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const enc = new TextEncoder();
        push = (text) => controller.enqueue(enc.encode(text));
        end = () => controller.close();
      },
    });
    fakeFetch((call) => (call.path === '/api/v1/workspace/memory-export' ? csv(body, { 'content-disposition': 'attachment; filename="memory.csv"', 'x-export-total': '5001', 'x-export-capped': 'true' }) : noFake(call)));
    renderWithApp(<ExportsSection />);
    const row = await rowOf('Memory');
    const button = within(row).getByRole('button', { name: 'Download memory' });
    fireEvent.click(button);
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe('Preparing the export…'));
    push('x'.repeat(2048));
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe('Downloading… 2 KB'));
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    push('y'.repeat(1024));
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe('Downloading… 3 KB'));
    end();
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe('Saved memory.csv (5,000 rows, 3 KB)'));
    expect(within(row).getByRole('note').textContent).toBe('Capped: the file holds the first 5,000 of 5,001 rows (exports hold at most 5,000).');
  });

  it('sends the activity window and the stale threshold, and holds an out-of-range threshold back', async () => {
    const desk = fakeFetch((call) => csv('id\r\n', { 'content-disposition': `attachment; filename="${call.path.split('/').pop()}.csv"`, 'x-export-total': '0', 'x-export-capped': 'false' }));
    renderWithApp(<ExportsSection />);
    const activity = await rowOf('Activity log');
    fireEvent.change(within(activity).getByLabelText('Activity from'), { target: { value: '2026-03-01' } });
    fireEvent.click(within(activity).getByRole('button', { name: 'Download activity log' }));
    await waitFor(() => expect(desk.calls).toHaveLength(1));
    expect(desk.calls[0].path).toBe('/api/v1/workspace/activity-export');
    expect(desk.calls[0].query.get('since')).toBe('2026-03-01');
    expect(desk.calls[0].query.has('until')).toBe(false);

    const stale = await rowOf('Stale tasks');
    const days = within(stale).getByLabelText('Stale for days');
    fireEvent.change(days, { target: { value: '61' } });
    expect(within(stale).getByRole('alert').textContent).toBe('Days must be a whole number from 1 to 60.');
    expect((within(stale).getByRole('button', { name: 'Download stale tasks' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(days, { target: { value: '12' } });
    fireEvent.click(within(stale).getByRole('button', { name: 'Download stale tasks' }));
    await waitFor(() => expect(desk.calls).toHaveLength(2));
    expect(desk.calls[1].query.get('thresholdDays')).toBe('12');
  });

  it('says which collections of the full export were capped, and shows a refused export', async () => {
    fakeFetch((call: FakeCall) => {
      if (call.path === '/api/v1/workspace/export') {
        const file = { format: 'desk.workspace-export', version: 1, collections: { signals: { exported: 10000, total: 12000, capped: true, cap: 10000 }, memory: { exported: 3, total: 3, capped: false, cap: 5000 } } };
        return new Response(JSON.stringify(file), { headers: { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="desk-export.json"' } });
      }
      if (call.path === '/api/v1/workspace/artifacts-export') return json(422, { error: 'validation_failed', message: 'format must be one of: csv, json', details: [{ field: 'format', message: 'must be one of: csv, json' }] });
      return noFake(call);
    });
    renderWithApp(<ExportsSection />);
    const all = await rowOf('Everything');
    expect(within(all).queryByRole('combobox')).toBeNull();
    fireEvent.click(within(all).getByRole('button', { name: 'Download everything' }));
    await waitFor(() => expect(within(all).getByRole('note').textContent).toBe('Capped: signals holds the newest 10,000 of 12,000.'));
    expect(saved.map((s) => s.name)).toEqual(['desk-export.json']);

    const outputs = await rowOf('Outputs');
    fireEvent.click(within(outputs).getByRole('button', { name: 'Download outputs' }));
    expect((await within(outputs).findByRole('alert')).textContent).toBe('format must be one of: csv, json');
    expect(saved).toHaveLength(1);
  });
});

describe('Settings > Data: signals, tasks, outputs and cost', () => {
  it('offers the signals and tasks exports, saves outputs as outputs.csv, and asks the cost export for one table per file', async () => {
    const names: Record<string, string> = { 'signals-export': 'signals', 'tasks-export': 'tasks', 'artifacts-export': 'outputs' };
    const desk = fakeFetch((call) => {
      const last = call.path.split('/').pop()!;
      const name = last === 'cost-export' ? `cost-${call.query.get('table')}` : names[last];
      return name ? csv('id\r\n', { 'content-disposition': `attachment; filename="${name}.csv"`, 'x-export-total': '0', 'x-export-capped': 'false' }) : noFake(call);
    });
    renderWithApp(<ExportsSection />);
    for (const title of ['Signals', 'Tasks', 'Outputs']) {
      const row = await rowOf(title);
      fireEvent.click(within(row).getByRole('button', { name: `Download ${title.toLowerCase()}` }));
      await waitFor(() => expect(within(row).getByRole('status').textContent).toMatch(/^Saved /));
    }
    expect(desk.calls.map((c) => c.path)).toEqual(['/api/v1/workspace/signals-export', '/api/v1/workspace/tasks-export', '/api/v1/workspace/artifacts-export']);
    expect(saved.map((s) => s.name)).toEqual(['signals.csv', 'tasks.csv', 'outputs.csv']);

    const cost = await rowOf('Cost');
    const table = within(cost).getByRole('combobox', { name: 'Cost table' });
    expect(within(table).getAllByRole('option').map((o) => o.textContent)).toEqual(['Daily spend (30 days)', 'By task', 'By source', 'By assignee']);
    fireEvent.change(table, { target: { value: 'bySource' } });
    fireEvent.click(within(cost).getByRole('button', { name: 'Download cost' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toContain('cost-bySource.csv'));
    expect(desk.calls[3].query.get('table')).toBe('bySource');
    expect(desk.calls[3].query.get('format')).toBe('csv');
  });
});

describe('filenameOf', () => {
  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(filenameOf(`attachment; filename="r_sum_.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`, 'x')).toBe('résumé.csv');
    expect(filenameOf('attachment; filename="a.csv"', 'x')).toBe('a.csv');
    expect(filenameOf(null, 'fallback.csv')).toBe('fallback.csv');
  });
});
