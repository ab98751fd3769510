import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { costCsv, costCsvStream, type CostExport } from './cost-export';

/** The cost CSV is streamed to the response: the same bytes as the whole text. */

const task = (i: number) => ({
  taskId: `tsk_${i}`,
  title: i === 0 ? '=HYPERLINK("x"), "quoted"\nline' : `task ${i}`,
  status: 'done' as const,
  assigneeId: i % 2 ? 'usr_1' : null,
  assigneeName: i % 2 ? 'Ann' : null,
  tags: i % 3 ? ['a', 'b'] : [],
  totalInputTokens: i * 10,
  totalOutputTokens: i,
  estimatedCostUsd: i / 1000,
  sessionCount: i % 4,
  costPerSessionUsd: 0.001,
});

describe('costCsvStream', () => {
  it('writes the bytes costCsv writes: four sections, formulas neutralised, cells quoted', async () => {
    const data: CostExport = {
      daily: [{ date: '2026-03-10', inputTokens: 237, outputTokens: 28, estimatedCostUsd: 2.4, costCents: 240 }],
      byTask: Array.from({ length: 1200 }, (_, i) => task(i)),
      bySource: [{ sourceId: 'src_1', label: '@feed, "one"', taskCount: 2, totalInputTokens: 5, totalOutputTokens: 1, estimatedCostUsd: 0.5 }],
      byAssignee: [{ assigneeId: '__unassigned__', displayName: 'Unassigned', taskCount: 3, totalInputTokens: 1, totalOutputTokens: 2, estimatedCostUsd: 0, sessionCount: 0 }],
      capped: false,
    };
    const streamed = await text(costCsvStream(data));
    expect(streamed).toBe(costCsv(data));
    expect(streamed.startsWith('# daily\r\ndate,inputTokens,outputTokens,estimatedCostUsd,costCents\r\n2026-03-10,237,28,2.4,240\r\n\r\n# byTask\r\n')).toBe(true);
    expect(streamed).toContain(`\r\ntsk_0,"'=HYPERLINK(""x""), ""quoted""\nline",done,`);
  });

  it('writes empty sections as their header row alone', async () => {
    const data: CostExport = { daily: [], byTask: [], bySource: [], byAssignee: [], capped: false };
    const streamed = await text(costCsvStream(data));
    expect(streamed).toBe(costCsv(data));
    expect(streamed.split('\r\n\r\n').map((s) => s.split('\r\n')[0])).toEqual(['# daily', '# byTask', '# bySource', '# byAssignee']);
  });
});
