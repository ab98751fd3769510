import type express from 'express';
import { damageOf, type DatabaseDamagedError } from '../db/integrity';
import { DATABASE_DAMAGED_BODY } from './app';
import type { Logger } from './core/log';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface DatabaseGuard {
  /** Holds every change until the start's integrity check passed (reads are served); 503 if it failed. */
  gate: express.RequestHandler;
  /** The error handler's hook: an error in which SQLite says the file is damaged switches the desk to rescue mode. */
  onDatabaseDamage(err: unknown): boolean;
  /** Scheduled work waits while this is true (the check has not passed yet). */
  holding(): boolean;
  /** Starts the check (once the desk listens: its reads of every page would otherwise slow the start). */
  release(): void;
}

/**
 * What keeps a running desk from writing into damage. A large file's quick_check runs on a worker
 * thread while the desk starts (db/connection.ts `verified`): until it passes, no job starts and every
 * change waits for it; if it fails, or SQLite reports damage on any later request, `onDamaged`
 * switches the desk to rescue mode (server/start.ts).
 */
export function databaseGuard(options: {
  file: string;
  verified: () => Promise<DatabaseDamagedError | null>;
  onDamaged: (damage: DatabaseDamagedError) => void;
  log: Logger;
}): DatabaseGuard {
  const { file, log, onDamaged } = options;
  let verifiedOk = false;
  let release!: () => void;
  const verified = new Promise<void>((resolve) => (release = resolve))
    .then(() => options.verified())
    .then(
      (damage) => {
        if (damage) onDamaged(damage);
        else verifiedOk = true;
        return damage;
      },
      (err: unknown) => {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'the integrity check could not run; the desk runs unchecked');
        verifiedOk = true;
        return null;
      },
    );
  return {
    gate(req, res, next) {
      if (verifiedOk || SAFE_METHODS.has(req.method) || !req.path.startsWith('/api')) return next();
      void verified.then((damage) => (damage ? res.status(503).json(DATABASE_DAMAGED_BODY) : next()));
    },
    onDatabaseDamage(err) {
      const damage = damageOf(file, err);
      if (!damage) return false;
      log.error({ problems: damage.problems }, 'SQLite reports the database damaged; switching to rescue mode');
      onDamaged(damage);
      return true;
    },
    holding: () => !verifiedOk,
    release: () => release(),
  };
}
