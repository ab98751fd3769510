import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { activityListQuery, type ActivityFilter } from './activity-service';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});

afterEach(async () => {
  await desk.stop();
});

async function planOf(filter: ActivityFilter): Promise<string> {
  const compiled = activityListQuery(desk.services.db, filter).compile();
  const { rows } = await desk.services.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  return rows.map((r) => r.detail).join('\n');
}

describe('activity list query', () => {
  const after = ['2026-03-10T12:00:00.000Z', 'act_01J'] as const;

  it('reads pages from activity_created: the cursor starts a range of the index, only ties are sorted', async () => {
    for (const f of [{}, { after }, { since: '2026-03-01T00:00:00.000Z', after }]) {
      const plan = await planOf({ fetch: 51, ...f });
      expect(plan, JSON.stringify(f)).toMatch(/(SEARCH|SCAN) activity USING INDEX activity_created/);
      // "LAST TERM": rows come in created_at order off the index; the id only orders one millisecond's ties
      expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
    expect(await planOf({ fetch: 51, after })).toMatch(/SEARCH activity USING INDEX activity_created \(created_at<\?\)/);
  });

  it('serves q from the search index: the matching rows are looked up by id, never a scan of the log', async () => {
    const plan = await planOf({ fetch: 51, q: 'plan', after });
    expect(plan).toMatch(/SCAN search_fts VIRTUAL TABLE/);
    expect(plan).toMatch(/SEARCH activity USING INDEX sqlite_autoindex_activity_1 \(id=\?\)/);
    expect(plan).not.toMatch(/SCAN activity/);
  });

  it('reads a one-kind page from activity_kind_created', async () => {
    const plan = await planOf({ fetch: 51, kinds: ['workspace.plan'], after });
    expect(plan).toMatch(/SEARCH activity USING INDEX activity_kind_created \(kind=\? AND created_at<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });
});
