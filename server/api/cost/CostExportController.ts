import type { Readable } from 'node:stream';
import { Controller, Get, Produces, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import { costCsvStream, type CostExport } from '../../domain/cost/cost-export';
import type { Services } from '../../services';
import { streamedAnswer, type ExportFormat } from '../export-answer';

/** The cost export, beside the other workspace exports. */
@Route('api/v1/workspace')
@Tags('Cost')
@Security('bearer')
export class CostExportController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Everything about spend in one file, over all tasks (done and archived included): `daily` (the
   * trailing 30 workspace days, zero-filled: date, inputTokens, outputTokens, estimatedCostUsd,
   * costCents), `byTask` (tasks with any cost, most expensive first), `bySource` (each task's cost
   * split equally across its sources) and `byAssignee` (the unassigned bucket as `__unassigned__`).
   * At most 5000 data rows in all: sections fill in the order daily, byAssignee, bySource, byTask,
   * and `capped` (JSON) says when rows were left out. `csv` (default; text/csv): four sections,
   * each a `# <name>` line, a header row and its rows, separated by an empty line, in the order
   * daily, byTask, bySource, byAssignee (tags space-separated). `json`:
   * `{ daily, byTask, bySource, byAssignee, capped }`.
   * @param format csv (default) or json
   */
  @Get('cost-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportCost(@Query() format: ExportFormat = 'csv'): Promise<CostExport | Readable> {
    // Streamed either way: the per-task rows are read as the answer is written.
    const data = await this.s.cost.exportData();
    return streamedAnswer(this, 'cost', format, data, () => costCsvStream(data));
  }
}
