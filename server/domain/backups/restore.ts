import fs from 'node:fs';
import path from 'node:path';
import { checkFile, type DatabaseDamagedError } from '../../../db/integrity';
import { DeskError } from '../../core/errors';
import { DATABASE_FILE } from '../../config';
import { BACKUP_FOLDER, isBackupName, listBackupFiles, type Backup } from './backup-service';

/** A backup as the rescue page offers it: checked with SQLite's quick_check first. */
export interface CheckedBackup extends Backup {
  /** quick_check passed: it can be restored. */
  ok: boolean;
  /** What SQLite said about a backup that failed (first lines). */
  problems?: string[];
}

/** The backups of a data folder, newest first, each checked (quick_check, read-only). */
export function checkedBackups(dataDir: string, nativeBinding?: string): CheckedBackup[] {
  const folder = path.join(dataDir, BACKUP_FOLDER);
  return listBackupFiles(folder).map((b) => {
    const damage = checkFile(path.join(folder, b.name), 'quick', nativeBinding);
    return damage ? { ...b, ok: false, problems: damage.problems.slice(0, 3) } : { ...b, ok: true };
  });
}

/** The newest backup that passes its check, or null. */
export const newestGoodBackup = (backups: readonly CheckedBackup[]): CheckedBackup | null => backups.find((b) => b.ok) ?? null;

export interface RestoreResult {
  /** The backup restored (its file name, or the path given to the command). */
  restored: string;
  /** Where the files of the replaced database were moved (never deleted); empty when there was none. */
  keptAside: string[];
}

/** What a desk in rescue mode says of itself (GET /api/v1/rescue). */
export interface RescueState {
  mode: 'rescue';
  /** What SQLite found: the file is not a database at all, or it is damaged. */
  problem: 'not_a_database' | 'damaged';
  /** The database file that failed (left as it is until a restore moves it aside). */
  file: string;
  /** SQLite's own words (first lines of quick_check, or its error). */
  details: string[];
  /**
   * When the desk found it.
   * @format date-time
   */
  detectedAt: string;
  /** The backups, newest first, each checked with quick_check. */
  backups: CheckedBackup[];
  /** The newest backup that passed its check: the one the page offers. */
  newestGood: string | null;
  /** The folder of the backups. */
  backupFolder: string;
}

/** What a restore from rescue mode answers, before the full desk starts on the same port. */
export interface RestoreAnswer extends RestoreResult {
  /** The database file the backup now is. */
  database: string;
  /** The restored workspace's token: the caller signs in with it once the desk is back. */
  token: string;
}

/** `20260310T120000Z`: a time in a file name (sortable, no characters Windows refuses). */
const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

/**
 * Where a backup named by the UI (a file name in `backups/`) or by the command (that, or a path to
 * any file) is. A name from the UI never reaches outside the backups folder.
 */
export function backupPath(dataDir: string, backup: string, allowAnyPath: boolean): string {
  if (isBackupName(backup)) return path.join(dataDir, BACKUP_FOLDER, backup);
  if (allowAnyPath) return path.resolve(backup);
  throw new DeskError(422, 'validation_failed', `backup must be the file name of a backup in ${BACKUP_FOLDER}/ (desk-<time>.sqlite)`, [
    { field: 'backup', message: 'must be the file name of a backup (desk-<time>.sqlite)' },
  ]);
}

/**
 * Replaces the data folder's database with a backup. Only while nothing has the database open (the
 * desk in rescue mode, or the command while no desk runs: the data folder's lock says which). The
 * backup is checked first (quick_check); the current files (`desk.sqlite` and its `-wal`/`-shm`)
 * are renamed to `desk.sqlite.damaged-<time>` (with the same suffixes, so SQLite still pairs them),
 * never deleted; the copy is written under a temporary name, synced and renamed into place.
 */
export function restoreBackup(dataDir: string, source: string, at: Date, nativeBinding?: string): RestoreResult {
  if (!fs.existsSync(source)) throw new DeskError(404, 'not_found', `No backup at ${source}`);
  const damage: DatabaseDamagedError | null = checkFile(source, 'quick', nativeBinding);
  if (damage) {
    throw new DeskError(422, 'validation_failed', `The backup failed SQLite's quick_check and was not restored: ${damage.problems.slice(0, 2).join('; ')}`, [
      { field: 'backup', message: 'failed its integrity check' },
    ]);
  }
  const live = path.join(dataDir, DATABASE_FILE);
  const aside = `${live}.damaged-${stamp(at)}`;
  const keptAside: string[] = [];
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    if (!fs.existsSync(`${live}${suffix}`)) continue;
    fs.renameSync(`${live}${suffix}`, `${aside}${suffix}`);
    keptAside.push(`${aside}${suffix}`);
  }
  const partial = `${live}.restoring`;
  try {
    fs.copyFileSync(source, partial);
    fs.chmodSync(partial, 0o600);
    const fd = fs.openSync(partial, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, live);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { restored: source.startsWith(path.join(dataDir, BACKUP_FOLDER)) ? path.basename(source) : source, keptAside };
}
