import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { SourceCrud, sourceListQuery } from './source-crud';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

async function planOf(after?: readonly (string | number)[]): Promise<string> {
  const compiled = sourceListQuery(desk.services.db, 50, after).compile();
  const { rows } = await desk.services.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  return rows.map((r) => r.detail).join('\n');
}

describe('SourceCrud', () => {
  it('serves each page of GET /sources from the sources_created index, without a sort step', async () => {
    for (const after of [undefined, ['2026-03-10T12:00:00.000Z', 'src_x']]) {
      const plan = await planOf(after);
      expect(plan).toMatch(/sources USING (COVERING )?INDEX sources_created/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('calls onFeedAdded after commit for a feed source only', async () => {
    const added: string[] = [];
    const { db, clock, workspace, sourceSync } = desk.services;
    const crud = new SourceCrud({ db, clock, workspace }, sourceSync, (id) => added.push(id));
    const feed = await crud.create({ type: 'rss', label: 'Feed', url: 'https://acme.example/feed.xml' });
    await crud.create({ type: 'manual', label: 'Inbox' });
    expect(added).toEqual([feed.id]);
    // a rejected create does not call it
    await expect(crud.create({ type: 'rss', label: 'Again', url: 'https://acme.example/feed.xml' })).rejects.toMatchObject({ status: 409, code: 'source_exists' });
    expect(added).toEqual([feed.id]);
  });
});
