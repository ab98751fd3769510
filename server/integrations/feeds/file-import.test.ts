import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FeedError } from './feed-error';
import { filePathOf, MAX_FILE_RECORDS, readSignalFile } from './file-import';
import { FIXTURES } from '../../testing/fakes/feed-server';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-file-import-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FeedError);
    return (err as FeedError).code;
  }
  throw new Error('expected a FeedError');
}

describe('readSignalFile', () => {
  it('reads CSV records by header name (any case and spacing), with the line each starts on', async () => {
    const file = await readSignalFile(path.join(FIXTURES, 'signals.csv'));
    expect(file.format).toBe('csv');
    expect(file.records).toHaveLength(5);
    expect(file.records[0]).toEqual({
      row: 2,
      values: { title: 'Churn risk at Globex', detail: 'Globex asked about cancellation terms', kind: 'alert', priority: 'high', sourceUrl: 'https://crm.example/globex', externalId: 'crm-1' },
    });
    expect(file.records[1].values.detail).toBe('Initech renews\nfor another year');
    expect(file.records[2].row).toBe(5);
    expect(file.records[3].values.title).toBeUndefined();
  });

  it('reads JSON as an array or an object with items, through a file:// URL', async () => {
    const file = await readSignalFile(pathToFileURL(path.join(FIXTURES, 'signals.json')).toString());
    expect(file.format).toBe('json');
    expect(file.records.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(file.records[0].values).toMatchObject({ title: 'NPS dropped to 31', externalId: 'nps-2026-03', priority: 'urgent' });
    const arrayFile = path.join(dir, 'list.json');
    fs.writeFileSync(arrayFile, JSON.stringify([{ title: 'One', external_id: 7 }]));
    expect((await readSignalFile(arrayFile)).records[0].values).toEqual({ title: 'One', externalId: '7' });
  });

  it('accepts only absolute .csv/.json locations', () => {
    expect(filePathOf('/tmp/a.csv')).toBe('/tmp/a.csv');
    expect(filePathOf('file:///tmp/a.JSON')).toBe('/tmp/a.JSON');
    expect(filePathOf('relative/a.csv')).toBeNull();
    expect(filePathOf('/tmp/a.txt')).toBeNull();
    expect(filePathOf('https://x.example/a.csv')).toBeNull();
  });

  it('fails clearly on missing files, bad content, a CSV without title column and too many records', async () => {
    expect(await code(readSignalFile(path.join(dir, 'missing.csv')))).toBe('file_unreadable');
    fs.writeFileSync(path.join(dir, 'bad.json'), '{ not json');
    expect(await code(readSignalFile(path.join(dir, 'bad.json')))).toBe('file_invalid');
    fs.writeFileSync(path.join(dir, 'obj.json'), '{"foo": 1}');
    expect(await code(readSignalFile(path.join(dir, 'obj.json')))).toBe('file_invalid');
    fs.writeFileSync(path.join(dir, 'notitle.csv'), 'name,detail\na,b\n');
    expect(await code(readSignalFile(path.join(dir, 'notitle.csv')))).toBe('file_invalid');
    fs.writeFileSync(path.join(dir, 'quote.csv'), 'title\n"unterminated\n');
    expect(await code(readSignalFile(path.join(dir, 'quote.csv')))).toBe('file_invalid');

    const rows = (n: number) => ['title', ...Array.from({ length: n }, (_, i) => `t${i}`)].join('\n');
    fs.writeFileSync(path.join(dir, 'max.csv'), rows(MAX_FILE_RECORDS));
    expect((await readSignalFile(path.join(dir, 'max.csv'))).records).toHaveLength(MAX_FILE_RECORDS);
    fs.writeFileSync(path.join(dir, 'over.csv'), rows(MAX_FILE_RECORDS + 1));
    expect(await code(readSignalFile(path.join(dir, 'over.csv')))).toBe('file_invalid');
    fs.writeFileSync(path.join(dir, 'big.csv'), rows(10));
    expect(await code(readSignalFile(path.join(dir, 'big.csv'), 10))).toBe('file_invalid');
  });
});
