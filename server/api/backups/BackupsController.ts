import { Controller, Get, Post, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { Backup, BackupList } from '../../domain/backups/backup-service';
import type { Services } from '../../services';

/**
 * Backups of the database (beyond the spec): made daily by the desk and on demand, the newest 7
 * kept in the data folder's `backups/`. Restoring is documented in README ("Backups").
 */
@Route('api/v1/backups')
@Tags('Backups')
@Security('bearer')
export class BackupsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** The backups on disk, newest first, with the folder they are in. */
  @Get()
  public async listBackups(): Promise<BackupList> {
    return this.s.backups.list();
  }

  /** Backs up the database now (an online copy: the desk keeps working); logged as `backup.created`. */
  @Post()
  @SuccessResponse('201', 'Created')
  @Response<ErrorBody>('409', 'A backup is being written already')
  public async createBackup(): Promise<Backup> {
    const backup = await this.s.backups.create();
    this.setStatus(201);
    return backup;
  }
}
