import { text } from 'node:stream/consumers';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { costCsvStream, type CostExport, type CostExportTask } from './cost-export';

/** The cost CSV is written as a stream, byTask read as it goes: the documented four sections, byte for byte. */

const task = (i: number): CostExportTask => ({
  taskId: `tsk_${i}`,
  title: i === 0 ? '=HYPERLINK("x"), "quoted"\nline' : `task ${i}`,
  status: 'done',
  assigneeId: i % 2 ? 'usr_1' : null,
  assigneeName: i % 2 ? 'Ann' : null,
  tags: i % 3 ? ['a', 'b'] : [],
  totalInputTokens: i * 10,
  totalOutputTokens: i,
  estimatedCostUsd: i / 1000,
  sessionCount: i % 4,
  costPerSessionUsd: 0.001,
});

async function* streamed<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

/** The format as the API documents it, written at once: `# name`, header, rows (CRLF), sections separated by an empty line. */
function expected(data: CostExport): string {
  const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v));
  const section = (name: string, rows: object[], headers: string[], pick: (r: never) => unknown[]) =>
    `# ${name}\r\n${stringify([headers, ...rows.map((r) => pick(r as never).map(cell))], { record_delimiter: 'windows' })}`;
  return [
    section('daily', data.daily, ['date', 'inputTokens', 'outputTokens', 'estimatedCostUsd', 'costCents'], (d: CostExport['daily'][number]) => [d.date, d.inputTokens, d.outputTokens, d.estimatedCostUsd, d.costCents]),
    section('byTask', data.byTask, ['taskId', 'title', 'status', 'assigneeId', 'assigneeName', 'tags', 'totalInputTokens', 'totalOutputTokens', 'estimatedCostUsd', 'sessionCount', 'costPerSessionUsd'], (t: CostExportTask) => [
      t.taskId,
      t.title,
      t.status,
      t.assigneeId,
      t.assigneeName,
      t.tags.join(' '),
      t.totalInputTokens,
      t.totalOutputTokens,
      t.estimatedCostUsd,
      t.sessionCount,
      t.costPerSessionUsd,
    ]),
    section('bySource', data.bySource, ['sourceId', 'label', 'taskCount', 'totalInputTokens', 'totalOutputTokens', 'estimatedCostUsd'], (s: CostExport['bySource'][number]) => [s.sourceId, s.label, s.taskCount, s.totalInputTokens, s.totalOutputTokens, s.estimatedCostUsd]),
    section('byAssignee', data.byAssignee, ['assigneeId', 'displayName', 'taskCount', 'totalInputTokens', 'totalOutputTokens', 'estimatedCostUsd', 'sessionCount'], (a: CostExport['byAssignee'][number]) => [
      a.assigneeId,
      a.displayName,
      a.taskCount,
      a.totalInputTokens,
      a.totalOutputTokens,
      a.estimatedCostUsd,
      a.sessionCount,
    ]),
  ].join('\r\n');
}

describe('costCsvStream', () => {
  it('writes four sections, formulas neutralised, cells quoted, the per-task rows as they are read', async () => {
    const data: CostExport = {
      daily: [{ date: '2026-03-10', inputTokens: 237, outputTokens: 28, estimatedCostUsd: 2.4, costCents: 240 }],
      byTask: Array.from({ length: 1200 }, (_, i) => task(i)),
      bySource: [{ sourceId: 'src_1', label: '@feed, "one"', taskCount: 2, totalInputTokens: 5, totalOutputTokens: 1, estimatedCostUsd: 0.5 }],
      byAssignee: [{ assigneeId: '__unassigned__', displayName: 'Unassigned', taskCount: 3, totalInputTokens: 1, totalOutputTokens: 2, estimatedCostUsd: 0, sessionCount: 0 }],
      capped: false,
    };
    const csv = await text(costCsvStream({ ...data, byTask: streamed(data.byTask) }));
    expect(csv).toBe(expected(data));
    expect(csv.startsWith('# daily\r\ndate,inputTokens,outputTokens,estimatedCostUsd,costCents\r\n2026-03-10,237,28,2.4,240\r\n\r\n# byTask\r\n')).toBe(true);
    expect(csv).toContain(`\r\ntsk_0,"'=HYPERLINK(""x""), ""quoted""\nline",done,`);
    expect(csv).toContain(`\r\nsrc_1,"'@feed, ""one""",2,5,1,0.5\r\n`);
  });

  it('writes strings, never Buffers (a later GC would free them)', async () => {
    const data: CostExport = { daily: [], byTask: [], bySource: [], byAssignee: [], capped: false };
    const types = new Set<string>();
    for await (const chunk of costCsvStream({ ...data, byTask: streamed([task(1)]) })) types.add(typeof chunk);
    expect([...types]).toEqual(['string']);
  });

  it('writes empty sections as their header row alone', async () => {
    const data: CostExport = { daily: [], byTask: [], bySource: [], byAssignee: [], capped: false };
    const csv = await text(costCsvStream({ ...data, byTask: streamed([]) }));
    expect(csv).toBe(expected(data));
    expect(csv.split('\r\n\r\n').map((s) => s.split('\r\n')[0])).toEqual(['# daily', '# byTask', '# bySource', '# byAssignee']);
  });
});
