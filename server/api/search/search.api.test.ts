import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { createMemory, insertMemoryRow } from '../../testing/fixtures/memory';
import { createSignal } from '../../testing/fixtures/signals';
import { createManualSource } from '../../testing/fixtures/sources';
import { createTask } from '../../testing/fixtures/tasks';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of GET /search: every kind, ranking, prefix, snippets, index sync, query syntax, limits. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const later = () => desk.clock.advance(MINUTE_MS);

interface Hit {
  kind: string;
  id: string;
  title: string;
  titleMarks: { start: number; end: number }[];
  snippet: string;
  snippetMarks: { start: number; end: number }[];
  at: string;
  route: string;
  taskId: string | null;
}

async function search(q: string, extra = ''): Promise<{ query: string; words: string[]; hits: Hit[]; capped: boolean }> {
  const res = await api('GET', `/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const ids = async (q: string, extra = '') => (await search(q, extra)).hits.map((h) => h.id);
const marked = (text: string, marks: { start: number; end: number }[]) => marks.map((m) => text.slice(m.start, m.end));

describe('GET /search finds every kind', () => {
  it('signals, tasks, outputs, memory, comments, activity and sources, each with its route and time', async () => {
    const signal = await createSignal(desk, { title: 'Zephyr outage report', detail: 'Customers saw errors' });
    later();
    const source = await createManualSource(desk, { label: 'Zephyr status page' });
    later();
    const task = await createTask(desk, { title: 'Plan the launch', summary: 'Coordinate with the zephyr team' });
    later();
    const comment = (await api('POST', `/tasks/${task.id}/comments`, { text: 'The zephyr rollout slipped' })).body;
    later();
    const memory = await createMemory(desk, { title: 'Zephyr pricing', content: 'Decided in March' });
    later();
    const artifact = await insertArtifactRow(desk, { title: 'Zephyr brief', content: 'Summary of the week' });
    later();
    await api('PATCH', '/workspace/timezone', { timezone: 'Europe/Berlin' });

    const { hits } = await search('zephyr', '&limit=50');
    const byKind = new Map(hits.map((h) => [h.kind, h]));
    expect([...byKind.keys()].sort()).toEqual(['activity', 'artifact', 'comment', 'memory', 'signal', 'source', 'task']);
    expect(byKind.get('signal')).toMatchObject({ id: signal.id, title: 'Zephyr outage report', route: `/signals?signal=${signal.id}`, at: signal.createdAt, taskId: null });
    expect(byKind.get('source')).toMatchObject({ id: source.id, route: `/sources/${source.id}` });
    expect(byKind.get('task')).toMatchObject({ id: task.id, title: 'Plan the launch', route: `/tasks/${task.id}`, snippet: expect.stringContaining('zephyr') });
    expect(byKind.get('comment')).toMatchObject({ id: comment.id, title: 'Comment on Plan the launch', taskId: task.id, route: `/tasks/${task.id}?comment=${comment.id}` });
    expect(byKind.get('memory')).toMatchObject({ id: memory.id, route: `/memory/${memory.id}` });
    expect(byKind.get('artifact')).toMatchObject({ id: artifact, route: `/outputs/${artifact}` });
    expect(byKind.get('activity')).toMatchObject({ route: '/activity?q=zephyr' });
    expect(byKind.get('activity')?.title.toLowerCase()).toContain('zephyr');

    // the kind filter
    expect((await search('zephyr', '&kind=task,comment')).hits.map((h) => h.kind).sort()).toEqual(['comment', 'task']);
    expect((await search('berlin', '&kind=activity')).hits.map((h) => h.kind)).toEqual(['activity']);
  });
});

describe('GET /search ranking, prefix and snippets', () => {
  it('ranks a title match above a tag match above a body match', async () => {
    const body = await insertMemoryRow(desk, { title: 'Office hours', content: 'The quokka team meets on Mondays' });
    const tagged = await insertMemoryRow(desk, { title: 'Team rituals', content: 'Nothing', tags: ['quokka'] });
    const title = await insertMemoryRow(desk, { title: 'Quokka launch', content: 'Nothing more' });
    expect(await ids('quokka')).toEqual([title, tagged, body]);
  });

  it('matches the last word as a prefix from 4 letters (as you type), the others as whole words, in any case and accent', async () => {
    const id = await insertMemoryRow(desk, { title: 'Onboarding checklist', content: 'Send the welcome e-mail to the café owner' });
    expect(await ids('onbo')).toEqual([id]);
    // shorter than 4 letters the last word is a whole word
    expect(await ids('onb')).toEqual([]);
    expect(await ids('to')).toEqual([id]);
    expect(await ids('ONBOARDING CHECK')).toEqual([id]);
    expect(await ids('onb checklist')).toEqual([]);
    expect(await ids('cafe')).toEqual([id]);
    expect(await ids('welcome zebra')).toEqual([]);
    expect((await search('Welcome, E-mail!')).words).toEqual(['welcome', 'e', 'mail']);
  });

  it('answers snippets as plain text with the offsets of the matches; markup in content stays text', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    words[40] = '<b>pelican</b>';
    const id = await insertMemoryRow(desk, { title: 'Pelican notes', content: words.join(' ') });
    const [hit] = (await search('pelican')).hits;
    expect(hit.id).toBe(id);
    expect(marked(hit.snippet, hit.snippetMarks)).toEqual(['pelican']);
    expect(hit.snippet).toContain('<b>pelican</b>');
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.title).toBe('Pelican notes');
    expect(marked(hit.title, hit.titleMarks)).toEqual(['Pelican']);
  });

  it('takes Markdown syntax out of snippets (outputs are Markdown), the marks still on the matched words', async () => {
    const id = await insertArtifactRow(desk, { title: 'Weekly brief', content: '## Summary\n\n**Albatross pricing** moved; see [the albatross page](https://acme.example/p).\n\n- `albatross` plan' });
    const [hit] = (await search('albatross')).hits;
    expect(hit.id).toBe(id);
    expect(hit.snippet).toBe('Summary Albatross pricing moved; see the albatross page. albatross plan');
    expect(marked(hit.snippet, hit.snippetMarks)).toEqual(['Albatross', 'albatross', 'albatross']);
  });
});

describe('the index follows every write', () => {
  // activity rows name what changed too; these tests look at the rows themselves
  const M = '&kind=memory';
  const TC = '&kind=task,comment';
  const A = '&kind=artifact';

  it('memory: edits, tags and deletes', async () => {
    const m = await createMemory(desk, { title: 'Walrus plan', content: 'Draft' });
    expect(await ids('walrus', M)).toEqual([m.id]);
    await api('PATCH', `/memory/${m.id}`, { title: 'Narwhal plan' });
    expect(await ids('walrus', M)).toEqual([]);
    expect(await ids('narwhal', M)).toEqual([m.id]);
    expect((await api('POST', '/memory/bulk-update', { action: 'tag', memoryIds: [m.id], tag: 'ocean-life' })).status).toBe(200);
    expect(await ids('ocean life', '&kind=memory')).toEqual([m.id]);
    expect((await api('DELETE', `/memory/${m.id}`)).status).toBe(200);
    expect(await ids('narwhal', M)).toEqual([]);
  });

  it('tasks: title edits, tags, and deleting a task takes its comments out', async () => {
    const task = await createTask(desk, { title: 'Heron survey', summary: 'Count birds' });
    const comment = (await api('POST', `/tasks/${task.id}/comments`, { text: 'Heron count done' })).body;
    // no API edits a task's title; the loop's writes and any other path go through the same trigger
    await desk.services.db.updateTable('tasks').set({ title: 'Egret survey' }).where('id', '=', task.id).execute();
    expect(await ids('heron', TC)).toEqual([comment.id]);
    expect(await ids('egret', TC)).toEqual([task.id]);
    await api('PUT', `/tasks/${task.id}/tags`, { tags: ['wetlands'] });
    expect(await ids('wetlands', TC)).toEqual([task.id]);
    await api('PUT', `/tasks/${task.id}/tags`, { tags: [] });
    expect(await ids('wetlands', TC)).toEqual([]);
    expect((await api('POST', '/tasks/bulk', { action: 'delete', taskIds: [task.id] })).status).toBe(200);
    expect(await ids('heron', TC)).toEqual([]);
    expect(await ids('egret', TC)).toEqual([]);
  });

  it('signals and sources: deletes and renames', async () => {
    const s = await createSignal(desk, { title: 'Ibis sighting' });
    await api('POST', '/signals/bulk', { action: 'delete', signalIds: [s.id] });
    expect(await ids('ibis', '&kind=signal')).toEqual([]);
    const source = await createManualSource(desk, { label: 'Ibis feed' });
    await api('PATCH', `/sources/${source.id}`, { label: 'Stork feed' });
    expect(await ids('ibis', '&kind=source')).toEqual([]);
    expect(await ids('stork', '&kind=source')).toEqual([source.id]);
  });

  it('outputs: retitled and re-tagged', async () => {
    const id = await insertArtifactRow(desk, { title: 'Puffin report' });
    await desk.services.db.updateTable('artifacts').set({ title: 'Gannet report' }).where('id', '=', id).execute();
    expect(await ids('puffin', A)).toEqual([]);
    await api('PUT', `/artifacts/${id}/tags`, { tags: ['seabirds'] });
    expect(await ids('seabirds', A)).toEqual([id]);
  });
});

describe('GET /search past 2000 matches', () => {
  it('ranks the newest 2000 matches and says so with capped', async () => {
    const old = await insertMemoryRow(desk, { title: 'Marmot', content: 'the oldest, a title match' });
    later();
    // 2000 newer signals that hold the word in their body only
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) SELECT 'sig_cap' || i, 'news', 'normal', 'Row ' || i, 'marmot seen', 0, ${desk.clock.now().toISOString()} FROM n`.execute(desk.services.db);
    const wide = await search('marmot');
    expect(wide.capped).toBe(true);
    expect(wide.hits.map((h) => h.id)).not.toContain(old);
    expect(wide.hits).toHaveLength(20);
    // a kind filter narrows the matches before the cap
    const narrow = await search('marmot', '&kind=memory');
    expect(narrow).toMatchObject({ capped: false, hits: [{ id: old }] });
    expect((await search('oldest marmot')).hits.map((h) => h.id)).toEqual([old]);
  });
});

describe('GET /search with a word found in 2000 rows or more', () => {
  /** 2000 signals with `word` in their body, indexed now (older than anything created after). */
  async function commonWord(word: string, prefix: string): Promise<void> {
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) SELECT ${prefix} || i, 'news', 'normal', 'Row ' || i, ${`${word} seen`}, 0, ${desk.clock.now().toISOString()} FROM n`.execute(desk.services.db);
    await desk.services.search.indexQueued();
    later();
  }

  it('ranks by where every word matches (title, tags, body), newest first: bm25 would count every row holding the word', async () => {
    await commonWord('ibex', 'sig_ibex');
    const title = await insertMemoryRow(desk, { title: 'Ibex sighting', content: 'Nothing' });
    later();
    const tagged = await insertMemoryRow(desk, { title: 'Alpine notes', content: 'Nothing', tags: ['ibex'] });
    later();
    const body = await insertMemoryRow(desk, { title: 'Walk', content: 'an ibex on the ridge' });
    const found = await search('ibex');
    expect(found.capped).toBe(true);
    expect(found.hits.slice(0, 3).map((h) => h.id)).toEqual([title, tagged, body]);
    expect(found.hits.slice(3).every((h) => h.kind === 'signal')).toBe(true);
    // marks and snippets as in a ranked answer
    expect(marked(found.hits[0].title, found.hits[0].titleMarks)).toEqual(['Ibex']);
    expect(marked(found.hits[2].snippet, found.hits[2].snippetMarks)).toEqual(['ibex']);
    // a kind filter, narrower, is still ranked the same way
    expect(await ids('ibex', '&kind=memory')).toEqual([title, tagged, body]);
  });

  it('with fewer matches than that, bm25 ranks them unless one of the words is that common', async () => {
    const short = await insertMemoryRow(desk, { title: 'Note', content: 'yak zebu' });
    later();
    const long = await insertMemoryRow(desk, { title: 'Note', content: 'zebu and a yak among the many animals the farm keeps through the long winter months' });
    // bm25: the same words in a shorter text rank higher, whatever the age
    expect(await ids('yak zebu')).toEqual([short, long]);
    await commonWord('yak', 'sig_yak');
    const both = await search('yak zebu');
    expect(both.capped).toBe(false);
    expect(both.hits.map((h) => h.id)).toEqual([long, short]);
  });
});

describe('GET /search query text and limits', () => {
  it('takes operator characters as plain text, never as FTS syntax', async () => {
    const id = await insertMemoryRow(desk, { title: 'Or else', content: 'near the column: value -x (grouped) "quoted" ^start' });
    for (const q of ['"', '""', '-', 'OR', 'AND', 'NOT', '*', '(', ')', ':', '^', 'NEAR(', 'col:', '"unbalanced', 'a OR b', '-column', 'title:or', '{title}', '+', '*prefix']) {
      const res = await api('GET', `/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    expect(await ids('"quoted"')).toEqual([id]);
    expect(await ids('column:')).toEqual([id]);
    expect(await ids('or')).toEqual([id]);
    expect(await ids('NEAR(column')).toEqual([id]);
    expect((await search('%%')).hits).toEqual([]);
  });

  it('q: 1-200 characters, not blank; limit 1-50, default 20; kind from the list', async () => {
    for (let i = 0; i < 25; i++) await insertMemoryRow(desk, { title: `Gecko ${i}`, content: 'x' });
    expect((await search('gecko')).hits).toHaveLength(20);
    expect((await search('gecko', '&limit=50')).hits).toHaveLength(25);
    expect((await search('gecko', '&limit=1')).hits).toHaveLength(1);
    expect((await search('g'.repeat(200))).hits).toEqual([]);
    const reject = (query: string, field: string) => expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/search?${query}` }, { field });
    await reject('q=', 'q');
    await reject('q=%20%20', 'q');
    await reject('', 'q');
    await reject(`q=${'g'.repeat(201)}`, 'q');
    await reject('q=gecko&limit=0', 'limit');
    await reject('q=gecko&limit=51', 'limit');
    await reject('q=gecko&kind=task,nope', 'kind');
  });
});
