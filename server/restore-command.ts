/** `desk restore [<backup>]` (`npm run restore -- <backup>`): the command side of a restore (server/cli.ts). */
import path from 'node:path';
import { DATABASE_FILE, type DeskConfig } from './config';
import { DeskError } from './core/errors';
import { lockDataDir } from './core/data-dir-lock';
import { backupPath, checkedBackups, restoreBackup } from './domain/backups/restore';

/** Runs the command; returns the exit code. Prints to stdout/stderr (a command, not the desk: no log file). */
export function runRestoreCommand(args: string[], config: DeskConfig, out: (line: string) => void = console.log, err: (line: string) => void = console.error): number {
  const [backup, ...rest] = args;
  if (rest.length > 0 || backup === '--help' || backup === '-h') {
    out('Usage: npm run restore -- <backup>   (a file name in the backups folder, or a path)');
    out('       npm run restore               (lists the backups, each checked)');
    return rest.length > 0 ? 2 : 0;
  }
  if (backup === undefined) {
    const backups = checkedBackups(config.dataDir, config.sqliteNativeBinding);
    out(`Backups in ${path.join(config.dataDir, 'backups')} (newest first):`);
    if (backups.length === 0) out('  none');
    for (const b of backups) out(`  ${b.name}  ${b.createdAt}  ${b.sizeBytes} bytes  ${b.ok ? 'ok' : `FAILED its check: ${(b.problems ?? []).join('; ')}`}`);
    out('Restore one with: npm run restore -- <name>');
    return 0;
  }
  let unlock: () => void;
  try {
    // A running desk has the database open: restoring under it would be lost or worse.
    unlock = lockDataDir(config.dataDir);
  } catch (e) {
    err(`Cannot restore while Desk runs on ${config.dataDir}: stop it first, or use the rescue page. (${e instanceof Error ? e.message : String(e)})`);
    return 1;
  }
  try {
    const result = restoreBackup(config.dataDir, backupPath(config.dataDir, backup, true), new Date(), config.sqliteNativeBinding);
    out(`Restored ${result.restored} into ${path.join(config.dataDir, DATABASE_FILE)}.`);
    for (const file of result.keptAside) out(`The previous file is kept as ${file}`);
    out('Start Desk again: npm start');
    return 0;
  } catch (e) {
    err(`Not restored: ${e instanceof DeskError || e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    unlock();
  }
}
