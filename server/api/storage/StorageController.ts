import { Controller, Get, Route, Security, Tags } from '@tsoa/runtime';
import type { Services } from '../../services';

/** The desk's storage as the UI shows it (beyond the spec). */
export interface StorageStatus {
  /** A write failed for want of space and the disk still has less free than Desk needs: writes answer 507 `disk_full`, scheduled work (the loop, feed polls) is held. */
  diskFull: boolean;
  /**
   * When a write first failed for want of space; null while the disk is not full.
   * @format date-time
   */
  fullSince: string | null;
  /**
   * Free bytes on the disk of the data folder now; null when the file system cannot say.
   * @isInt
   */
  freeBytes: number | null;
  /**
   * Free bytes Desk needs to resume after the disk filled.
   * @isInt
   */
  neededBytes: number;
  /** The data folder (the disk to free space on). */
  dataDir: string;
}

@Route('api/v1/storage')
@Tags('Backups')
@Security('bearer')
export class StorageController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Whether the disk is full (looked at now: a disk that has the space again ends the hold here and
   * the scheduled work resumes), how much is free and how much Desk needs.
   */
  @Get()
  public async getStorage(): Promise<StorageStatus> {
    const full = this.s.diskSpace.check();
    return { diskFull: full !== null, fullSince: full?.since ?? null, freeBytes: this.s.diskSpace.freeBytes(), neededBytes: this.s.diskSpace.neededBytes, dataDir: this.s.config.dataDir };
  }
}
