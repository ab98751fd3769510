import fs from 'node:fs';
import path from 'node:path';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict } from '../../core/errors';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import type { Db } from '../../../db/connection';
import { checkFileOffThread, type DatabaseDamagedError, type IntegrityMode } from '../../../db/integrity';

/** Checks a file with SQLite (db/integrity.ts); null when it passes. */
export type FileCheck = (file: string, mode: IntegrityMode) => Promise<DatabaseDamagedError | null>;

/** Suffix of a backup that failed its check: kept for a look, never listed or offered for a restore. */
export const FAILED_CHECK_SUFFIX = '.failed-check';

/** How many backups are kept: the newest, older ones are removed after each new backup. */
export const BACKUPS_KEPT = 7;
export const BACKUP_FOLDER = 'backups';
/**
 * How many copies taken before a schema upgrade are kept (db/migrate.ts writes them at start),
 * apart from the daily ones: a week of daily backups never pushes out the copy of the old version.
 */
export const UPGRADE_BACKUPS_KEPT = 3;
/** A daily or on-demand backup, or (with `-upgrade-<from>-to-<to>`) the copy taken before a schema upgrade. */
const NAME = /^desk-(\d{8}T\d{6}(?:\d{3})?Z)(-upgrade-\d{4}-to-\d{4})?\.sqlite$/;

const stamp = (at: Date) => at.toISOString().replace(/[-:.]/g, '');

/** The file name of the copy taken before upgrading the schema from one version to another, e.g. `desk-20260310T120000000Z-upgrade-0015-to-0019.sqlite`. */
export function upgradeBackupName(at: Date, fromSchema: number, toSchema: number): string {
  const v = (n: number) => String(n).padStart(4, '0');
  return `desk-${stamp(at)}-upgrade-${v(fromSchema)}-to-${v(toSchema)}.sqlite`;
}

export interface Backup {
  /** File name inside the data folder's `backups/`, e.g. `desk-20260310T120000000Z.sqlite`. */
  name: string;
  /** @format date-time */
  createdAt: string;
  /** @isInt */
  sizeBytes: number;
}

export interface BackupList {
  /** Newest first. */
  backups: Backup[];
  /** The folder that holds them (restore by copying one over `desk.sqlite` while Desk is stopped; see README). */
  folder: string;
  /**
   * How many are kept; older ones are removed after each new backup.
   * @isInt
   */
  kept: number;
}

/**
 * Online backups of the database into `<data dir>/backups/`, made on demand and by a daily job.
 * Each is written under a temporary name and renamed when complete, so a crash mid-backup never
 * leaves a truncated file that looks like a backup; files are private to the user (0600).
 */
export class BackupService {
  private running: Promise<Backup> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dataDir: string,
    private readonly copyDatabase: (file: string) => Promise<void>,
    private readonly check: FileCheck = (file, mode) => checkFileOffThread(file, mode),
  ) {}

  get folder(): string {
    return path.join(this.dataDir, BACKUP_FOLDER);
  }

  list(): BackupList {
    return { backups: this.files(), folder: this.folder, kept: BACKUPS_KEPT };
  }

  /**
   * Backs up now (by a member, or by the daily job as `system`). One backup at a time: a second
   * request while one runs is a 409. The copy is checked before it counts as a backup: `quick_check`
   * on demand, the full `integrity_check` daily (a page-for-page copy of the live database, so this
   * checks the database itself without holding its connection).
   */
  async create(actor?: Actor, mode: IntegrityMode = 'quick'): Promise<Backup> {
    if (this.running) throw conflict('backup_running', 'A backup is being written; try again when it has finished');
    const who = actor ?? (await resolveActor(this.db));
    this.running = this.write(who, mode);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  /** The daily job's backup, by the desk itself. */
  createScheduled(): Promise<Backup> {
    return this.create(SYSTEM_ACTOR, 'full');
  }

  private async write(actor: Actor, mode: IntegrityMode): Promise<Backup> {
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const at = this.clock.now();
    const name = `desk-${stamp(at)}.sqlite`;
    const target = path.join(this.folder, name);
    const partial = `${target}.partial`;
    try {
      await this.copyDatabase(partial);
      fs.chmodSync(partial, 0o600);
      // A copy that fails is no backup: older backups are not pruned for it, and nothing offers it.
      const damage = await this.check(partial, mode);
      if (damage) {
        fs.renameSync(partial, `${target}${FAILED_CHECK_SUFFIX}`);
        throw new Error(`the database failed SQLite's ${mode === 'full' ? 'integrity_check' : 'quick_check'} (${damage.problems.slice(0, 3).join('; ')}); the copy is kept as ${name}${FAILED_CHECK_SUFFIX} and older backups are kept`);
      }
      fs.renameSync(partial, target);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    const backup: Backup = { name, createdAt: at.toISOString(), sizeBytes: fs.statSync(target).size };
    const removed = this.prune();
    await inTransaction(this.db, (trx) =>
      recordActivity(trx, this.clock, {
        kind: 'backup.created',
        detail: `Database backed up to ${name}, ${mode === 'full' ? 'integrity_check' : 'quick_check'} ok${removed > 0 ? ` (${removed} older removed, ${BACKUPS_KEPT} kept)` : ''}`,
        actor,
        entityType: 'backup',
        entityId: name,
      }),
    );
    return backup;
  }

  /** Removes all but the newest BACKUPS_KEPT backups (and UPGRADE_BACKUPS_KEPT copies taken before upgrades); returns how many were removed. */
  private prune(): number {
    const files = this.files();
    const upgrade = (b: Backup) => b.name.includes('-upgrade-');
    const old = [...files.filter((b) => !upgrade(b)).slice(BACKUPS_KEPT), ...files.filter(upgrade).slice(UPGRADE_BACKUPS_KEPT)];
    for (const b of old) fs.rmSync(path.join(this.folder, b.name), { force: true });
    return old.length;
  }

  private files(): Backup[] {
    return listBackupFiles(this.folder);
  }
}

/** The backups in `folder`, newest first (files named as this service names them; anything else is ignored). */
export function listBackupFiles(folder: string): Backup[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .flatMap((name) => {
      const m = NAME.exec(name);
      if (!m) return [];
      const iso = m[1].replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})?Z$/, (_all, y, mo, d, h, mi, s, ms) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms ?? '000'}Z`);
      return [{ name, createdAt: new Date(iso).toISOString(), sizeBytes: fs.statSync(path.join(folder, name)).size }];
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
}

/** Whether `name` is a backup's file name (no folder, nothing else): what a restore accepts from the UI. */
export const isBackupName = (name: string): boolean => NAME.test(name);
