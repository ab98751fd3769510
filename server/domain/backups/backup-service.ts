import fs from 'node:fs';
import path from 'node:path';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict } from '../../core/errors';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import type { Db } from '../../../db/connection';

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
  ) {}

  get folder(): string {
    return path.join(this.dataDir, BACKUP_FOLDER);
  }

  list(): BackupList {
    return { backups: this.files(), folder: this.folder, kept: BACKUPS_KEPT };
  }

  /** Backs up now (by a member, or by the daily job as `system`). One backup at a time: a second request while one runs is a 409. */
  async create(actor?: Actor): Promise<Backup> {
    if (this.running) throw conflict('backup_running', 'A backup is being written; try again when it has finished');
    const who = actor ?? (await resolveActor(this.db));
    this.running = this.write(who);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  /** The daily job's backup, by the desk itself. */
  createScheduled(): Promise<Backup> {
    return this.create(SYSTEM_ACTOR);
  }

  private async write(actor: Actor): Promise<Backup> {
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const at = this.clock.now();
    const name = `desk-${stamp(at)}.sqlite`;
    const target = path.join(this.folder, name);
    const partial = `${target}.partial`;
    try {
      await this.copyDatabase(partial);
      fs.chmodSync(partial, 0o600);
      fs.renameSync(partial, target);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    const backup: Backup = { name, createdAt: at.toISOString(), sizeBytes: fs.statSync(target).size };
    const removed = this.prune();
    await inTransaction(this.db, (trx) =>
      recordActivity(trx, this.clock, {
        kind: 'backup.created',
        detail: `Database backed up to ${name}${removed > 0 ? ` (${removed} older removed, ${BACKUPS_KEPT} kept)` : ''}`,
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
    if (!fs.existsSync(this.folder)) return [];
    return fs
      .readdirSync(this.folder)
      .flatMap((name) => {
        const m = NAME.exec(name);
        if (!m) return [];
        const iso = m[1].replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})?Z$/, (_all, y, mo, d, h, mi, s, ms) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms ?? '000'}Z`);
        return [{ name, createdAt: new Date(iso).toISOString(), sizeBytes: fs.statSync(path.join(this.folder, name)).size }];
      })
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  }
}
