import type { Readable } from 'node:stream';
import { Controller, Get, Produces, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { DecisionsExport, DecisionsList } from '../../domain/artifacts/artifact-service';
import { DECISION_CSV_COLUMNS } from '../../domain/artifacts/decisions-log';
import { exportAnswer, type ExportFormat } from '../export-answer';
import type { Services } from '../../services';

/** The decisions log: outputs approved or archived by reviewers (brief-type outputs are left out). */
@Route('api/v1')
@Tags('Artifacts')
@Security('bearer')
export class DecisionsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The last approved or archived non-brief outputs whose decision falls within the last
   * `windowDays` days (decidedAt at or after now minus the window), newest decision first.
   * @param windowDays days back from now, 1-365 (default 30)
   * @isInt windowDays must be an integer
   * @param limit decisions answered, 1-100 (default 10)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   */
  @Get('decisions')
  @Response<ErrorBody>('422', 'windowDays, limit or cursor is invalid')
  public async listDecisions(@Query() windowDays = 30, @Query() limit = 10, @Query() cursor?: string): Promise<DecisionsList> {
    return this.s.artifacts.decisions({ windowDays, limit, cursor });
  }

  /**
   * Every approved or archived non-brief output, newest decision first, capped at 5000 rows.
   * `csv` (default; text/csv, header row artifactId, title, kind, status, taskId, taskTitle,
   * reviewOwnerId, reviewOwnerName, tags (space-separated), readyAt, decidedAt, waitHours) or
   * `json` (`{ rows, total, capped }`, tags as an array).
   * @param format csv (default) or json
   */
  @Get('workspace/decisions-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportDecisions(@Query() format: ExportFormat = 'csv'): Promise<DecisionsExport | Readable> {
    const data = await this.s.artifacts.exportDecisions();
    return exportAnswer(this, 'decisions', format, data, { columns: DECISION_CSV_COLUMNS, rows: data.rows });
  }
}
