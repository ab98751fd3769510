import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../api/client';
import { formatDateTime } from '../../../lib/format';
import { json, noFake, fakeFetch } from '../../../testing/fake-api';
import { renderWithApp } from '../../../testing/render';
import { BackupsSection } from './BackupsSection';

type Backup = Schema<'Backup'>;

const FOLDER = '/home/op/.local/share/desk/backups';
const older: Backup = { name: 'desk-20260308T020000000Z.sqlite', createdAt: '2026-03-08T02:00:00.000Z', sizeBytes: 1_200_000 };
const newer: Backup = { name: 'desk-20260309T020000000Z.sqlite', createdAt: '2026-03-09T02:00:00.000Z', sizeBytes: 1_310_720 };
const made: Backup = { name: 'desk-20260310T120000000Z.sqlite', createdAt: '2026-03-10T12:00:00.000Z', sizeBytes: 1_400_000 };

/** The backups API: GET lists newest first; POST answers `post()` (a backup, or an error response). */
function fakeBackups(initial: Backup[], post: () => Response | Promise<Response> = () => json(201, made)) {
  let backups = [...initial];
  return fakeFetch(async (call) => {
    if (call.method === 'GET' && call.path === '/api/v1/backups') return json(200, { backups, folder: FOLDER, kept: 7 });
    if (call.method === 'POST' && call.path === '/api/v1/backups') {
      const res = await post();
      if (res.status === 201) backups = [made, ...backups];
      return res;
    }
    return noFake(call);
  });
}


const rowsOf = () => within(screen.getByRole('table', { name: 'Backups' })).getAllByRole('row').slice(1);

describe('Settings > Backups', () => {
  it('lists the backups newest first, in local time with their size, the folder and how many are kept', async () => {
    fakeBackups([newer, older]);
    renderWithApp(<BackupsSection />);
    await screen.findByRole('table', { name: 'Backups' });
    expect(rowsOf().map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      [formatDateTime(newer.createdAt), newer.name, '1.3 MB'],
      [formatDateTime(older.createdAt), older.name, '1.1 MB'],
    ]);
    expect(rowsOf()[0].querySelector('time')?.getAttribute('dateTime')).toBe(newer.createdAt);
    expect(screen.getByText(FOLDER)).toBeTruthy();
    expect(screen.getByText(/keeps the newest 7 backups/)).toBeTruthy();
    expect(screen.getByText(/copy a backup over desk\.sqlite/)).toBeTruthy();
  });

  it('says when there is no backup yet', async () => {
    fakeBackups([]);
    renderWithApp(<BackupsSection />);
    expect(await screen.findByText(/No backups yet/)).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Backups' })).toBeNull();
  });

  it('"Back up now" shows its progress, then the new backup on top of the list', async () => {
    let finish!: () => void;
    const desk = fakeBackups([newer], () => new Promise((resolve) => (finish = () => resolve(json(201, made)))));
    renderWithApp(<BackupsSection />);
    await screen.findByRole('table', { name: 'Backups' });
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    const busy = await screen.findByRole('button', { name: 'Backing up…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Writing the backup…');
    await waitFor(() => expect(finish).toBeTypeOf('function'));
    finish();
    await waitFor(() => expect(rowsOf().map((r) => r.querySelector('code')?.textContent)).toEqual([made.name, newer.name]));
    expect(screen.getByRole('status').textContent).toBe(`Saved ${made.name}`);
    expect((screen.getByRole('button', { name: 'Back up now' }) as HTMLButtonElement).disabled).toBe(false);
    expect(desk.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    // the list is read again after the backup (pruning may have removed the oldest)
    await waitFor(() => expect(desk.calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/backups')).toHaveLength(2));
  });

  it('shows a refused backup in the one error shape, and the list unchanged', async () => {
    fakeBackups([newer], () => json(409, { error: 'backup_running', message: 'A backup is being written; try again when it has finished' }));
    renderWithApp(<BackupsSection />);
    await screen.findByRole('table', { name: 'Backups' });
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A backup is being written; try again when it has finished');
    expect(rowsOf()).toHaveLength(1);
  });

});
