/**
 * Read latency of the API on the full dataset, each beside two baselines measured in the same run:
 * bare Express answering the same JSON the desk answered (the framework's floor) and a raw
 * better-sqlite3 query reading the same rows (the database's floor). One sequential client in
 * this process for all three, so the figures compare like for like.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import type { TestDesk } from '../../testing/desk';
import { fetchRetry, sequential, type Latency } from '../measure';
import { close, listen, portOf } from '../throughput';

export interface EndpointFigure {
  name: string;
  path: string;
  desk: Latency;
  bareExpress: Latency;
  rawSql: Latency | null;
  /** Rows the desk answered (list endpoints). */
  rows: number | null;
}

interface Endpoint {
  name: string;
  path: string;
  /** The raw query for the rows the desk answered (body: the desk's answer). */
  raw?: (sqlite: Database.Database, body: Record<string, unknown>) => () => unknown;
}

/** The list of an answer: its first array field (`tasks`, `activities`, `hits`, ...). */
const listOf = (body: Record<string, unknown>): { id?: string }[] | null => (Object.values(body).find((v) => Array.isArray(v)) as { id?: string }[] | undefined) ?? null;
const idsOf = (body: Record<string, unknown>): string[] => (listOf(body) ?? []).map((r) => r.id ?? '').filter(Boolean);

/** SELECT * of the answered ids: what reading those rows costs without the API. */
function byIds(table: string) {
  return (sqlite: Database.Database, body: Record<string, unknown>) => {
    const ids = idsOf(body);
    const stmt = sqlite.prepare(`SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(',') || 'NULL'})`);
    return () => stmt.all(...ids);
  };
}

export const REQUESTS = 200;

/** Pages GET `listPath` forward `pages` times (limit 200) and returns the cursor reached. */
export async function deepCursor(desk: TestDesk, listPath: string, pages: number): Promise<string> {
  let cursor = '';
  for (let p = 0; p < pages; p++) {
    const url = `${listPath}${listPath.includes('?') ? '&' : '?'}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    // One retry of a reset connection (seen once on a loaded machine); a second failure stops the bench.
    const res = await desk.api('GET', url).catch(() => desk.api('GET', url));
    if (res.status !== 200) throw new Error(`${listPath}: HTTP ${res.status}`);
    if (!res.body.nextCursor) break;
    cursor = res.body.nextCursor as string;
  }
  return cursor;
}

/** The read endpoints of the issue, measured on `desk` (its database file read raw beside it). */
export async function measureEndpoints(desk: TestDesk, searchWord: string): Promise<EndpointFigure[]> {
  const day = desk.clock.now().toISOString().slice(0, 10);
  const activityCursor = await deepCursor(desk, '/api/v1/activity', 100);
  const endpoints: Endpoint[] = [
    { name: 'GET /workspace', path: '/api/v1/workspace', raw: (s) => { const st = s.prepare('SELECT * FROM workspace'); return () => st.get(); } },
    { name: 'GET /tasks', path: '/api/v1/tasks?limit=50', raw: byIds('tasks') },
    { name: 'GET /signals', path: '/api/v1/signals?limit=50', raw: byIds('signals') },
    { name: 'GET /activity (first page)', path: '/api/v1/activity?limit=50', raw: byIds('activity') },
    { name: 'GET /activity (deep cursor, 20k rows in)', path: `/api/v1/activity?limit=50&cursor=${encodeURIComponent(activityCursor)}`, raw: byIds('activity') },
    { name: 'GET /artifacts?status=ready (aggregates)', path: '/api/v1/artifacts?status=ready', raw: byIds('artifacts') },
    {
      name: 'GET /cost/today',
      path: '/api/v1/cost/today',
      raw: (s) => { const st = s.prepare("SELECT * FROM cost_daily WHERE dimension = 'workspace' AND day = ?"); return () => st.all(day); },
    },
    {
      name: 'GET /memory/top-cost',
      path: '/api/v1/memory/top-cost',
      raw: (s) => {
        const st = s.prepare("SELECT key, SUM(cost_micro_usd) AS c FROM cost_daily WHERE dimension = 'memory' GROUP BY key ORDER BY c DESC LIMIT 10");
        return () => st.all();
      },
    },
    {
      name: `GET /search?q=${searchWord}`,
      path: `/api/v1/search?q=${searchWord}`,
      raw: (s) => { const st = s.prepare('SELECT rowid, rank FROM search_fts WHERE search_fts MATCH ? ORDER BY rank LIMIT 20'); return () => st.all(searchWord); },
    },
  ];
  const sqlite = new Database(path.join(desk.dataDir, 'desk.sqlite'), { readonly: true });
  const bodies = new Map<string, unknown>();
  const app = express();
  app.use((req, res) => {
    res.json(bodies.get(req.originalUrl));
  });
  const bare = await listen(app);
  const bareUrl = `http://127.0.0.1:${portOf(bare)}`;
  const out: EndpointFigure[] = [];
  try {
    for (const e of endpoints) {
      const first = await desk.api('GET', e.path).catch(() => desk.api('GET', e.path));
      if (first.status !== 200) throw new Error(`${e.name}: HTTP ${first.status} ${JSON.stringify(first.body).slice(0, 200)}`);
      bodies.set(e.path, first.body);
      const deskFig = await sequential(REQUESTS, async () => {
        const res = await fetchRetry(desk.url + e.path, { headers: { authorization: `Bearer ${desk.token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${e.name}: HTTP ${res.status}`);
      });
      const bareFig = await sequential(REQUESTS, async () => {
        const res = await fetchRetry(bareUrl + e.path);
        await res.arrayBuffer();
      });
      const run = e.raw?.(sqlite, first.body as Record<string, unknown>);
      const rawFig = run ? await sequential(REQUESTS, run) : null;
      const rows = listOf(first.body as Record<string, unknown>)?.length ?? null;
      out.push({ name: e.name, path: e.path, desk: deskFig, bareExpress: bareFig, rawSql: rawFig, rows });
    }
  } finally {
    await close(bare);
    sqlite.close();
  }
  return out;
}
