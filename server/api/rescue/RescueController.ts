import { Body, Controller, Get, Post, Response, Route, Security, Tags } from '@tsoa/runtime';
import { conflict, type ErrorBody } from '../../core/errors';
import type { RescueState, RestoreAnswer } from '../../domain/backups/restore';

export interface RescueRestoreBody {
  /** A backup's file name in `backups/` (GET /api/v1/rescue lists them); the newest that passes its check when absent. */
  backup?: string;
}

const notInRescue = () =>
  conflict('not_in_rescue_mode', "Desk's database passed its integrity check at start: there is nothing to rescue. Backups are listed at GET /api/v1/backups.");

/**
 * Rescue mode (beyond the spec): when the database fails SQLite's check at start, Desk does not
 * open it; it answers every other endpoint 503 `database_damaged` and serves these two, which say
 * what SQLite found and restore a backup, after which the full desk starts on the same port. A desk
 * whose database is fine answers them 409 `not_in_rescue_mode` (server/rescue-desk.ts serves them
 * in rescue mode; this controller documents them and answers on a healthy desk).
 */
@Route('api/v1/rescue')
@Tags('Backups')
@Security('bearer')
export class RescueController extends Controller {
  /** What SQLite found, the backups (newest first, each checked) and the one a restore would use. */
  @Get()
  @Response<ErrorBody>('409', 'not_in_rescue_mode: the database is fine')
  public async getRescueState(): Promise<RescueState> {
    throw notInRescue();
  }

  /**
   * Restores a backup that passes its check over the damaged database (whose files are kept aside,
   * never deleted), answers, then starts the full desk on the same port.
   */
  @Post('restore')
  @Response<ErrorBody>('409', 'not_in_rescue_mode: the database is fine; or no backup passes its check; or a restore is under way')
  @Response<ErrorBody>('422', 'backup is not a string, or names no backup in the backups folder')
  public async restoreFromRescue(@Body() _body: RescueRestoreBody): Promise<RestoreAnswer> {
    throw notInRescue();
  }
}
