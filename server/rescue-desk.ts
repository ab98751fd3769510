/**
 * Rescue mode: what the desk runs instead when its database fails SQLite's check at start. The
 * database is not opened for writes (it is not opened at all); the API answers every normal
 * endpoint 503 `database_damaged`, and a small rescue API says what happened, lists the backups
 * (each checked) and restores one, after which the full desk starts on the same port.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { DatabaseDamagedError } from '../db/integrity';
import { DATABASE_FILE, type DeskConfig } from './config';
import type { Clock } from './core/clock';
import { DeskError } from './core/errors';
import type { Logger } from './core/log';
import { bearerOf, tokenMatches } from './api/auth';
import { errorHandler, precomputedHeaders, STRICT_HELMET } from './app';
import { hostAndOriginGuard } from './http-guards';
import { checkedBackups, newestGoodBackup, restoreBackup, backupPath, type RescueState, type RestoreAnswer, type RestoreResult } from './domain/backups/restore';

export type { RescueState };

/** The header every answer of a rescue desk carries: the UI switches to its rescue page on it. */
export const RESCUE_MODE_HEADER = 'X-Desk-Mode';


export interface RescueDeskArgs<D extends RescuedDesk> {
  config: DeskConfig;
  clock: Clock;
  log: Logger;
  damage: DatabaseDamagedError;
  /** Releases the data folder (and the log, if the desk opened it). */
  unlock: () => Promise<void>;
  /** Starts the full desk on `port` once a backup is restored (the same startDesk, which checks again). */
  resume: (port: number) => Promise<D>;
}

/** The part of a running desk the rescue desk hands over to after a restore. */
export interface RescuedDesk {
  url: string;
  token: string;
  stop(): Promise<void>;
}

/** The workspace token a database file holds, when SQLite can read it; null otherwise. */
function tokenIn(file: string, nativeBinding?: string): string | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      const row = db.prepare('select ingest_token as token from workspace limit 1').get() as { token?: unknown } | undefined;
      if (typeof row?.token === 'string' && row.token.length >= 16) return row.token;
    } finally {
      db.close();
    }
  } catch {
    // Unreadable: the caller decides.
  }
  return null;
}

/**
 * The rescue desk's token: the damaged file's own when the page that holds it can still be read
 * (the UI open before keeps working), else the seed's, else a new one for this run (printed with the URL).
 */
const rescueToken = (file: string, config: DeskConfig): string =>
  tokenIn(file, config.sqliteNativeBinding) ?? config.seed.ingestToken ?? crypto.randomBytes(32).toString('base64url');

/** A rescue desk; after a restore, `resumed()` is the full desk it handed over to. */
export interface RescueDesk<D extends RescuedDesk> extends RescuedDesk {
  resumed(): D | null;
}

export async function startRescueDesk<D extends RescuedDesk>(args: RescueDeskArgs<D>): Promise<RescueDesk<D>> {
  const { config, clock, log, damage } = args;
  const token = rescueToken(damage.file, config);
  log.addSecret(token);
  const detectedAt = clock.now().toISOString();
  log.error({ file: damage.file, problem: damage.kind, details: damage.problems.slice(0, 5) }, 'the database failed its check at start: rescue mode (nothing is written to it)');
  const state = (): RescueState => {
    const backups = checkedBackups(config.dataDir, config.sqliteNativeBinding);
    return {
      mode: 'rescue',
      problem: damage.kind,
      file: damage.file,
      details: damage.problems.slice(0, 5),
      detectedAt,
      backups,
      newestGood: newestGoodBackup(backups)?.name ?? null,
      backupFolder: path.join(config.dataDir, 'backups'),
    };
  };

  let resumed: D | null = null;
  let restoring: Promise<void> | null = null;
  const app = express();
  app.disable('x-powered-by');
  app.use(hostAndOriginGuard(config.host));
  app.use(precomputedHeaders(helmet(STRICT_HELMET)));
  app.use((_req, res, next) => {
    res.setHeader(RESCUE_MODE_HEADER, 'rescue');
    next();
  });
  const authenticated = (req: Request, _res: Response, next: NextFunction) => {
    const given = bearerOf(req);
    next(given !== null && tokenMatches(given, token) ? undefined : new DeskError(401, 'unauthorized', 'Missing or invalid bearer token'));
  };
  app.get('/api/v1/rescue', authenticated, (_req, res) => {
    res.json(state());
  });
  app.post('/api/v1/rescue/restore', authenticated, express.json({ limit: '4kb' }), (req: Request, res: Response, next: NextFunction) => {
    if (restoring) return next(new DeskError(409, 'backup_running', 'A restore is under way'));
    const asked = (req.body as { backup?: unknown } | undefined)?.backup;
    if (asked !== undefined && typeof asked !== 'string') return next(new DeskError(422, 'validation_failed', 'backup must be a string', [{ field: 'backup', message: 'must be a string' }]));
    const name = asked ?? newestGoodBackup(checkedBackups(config.dataDir, config.sqliteNativeBinding))?.name;
    if (name === undefined) return next(new DeskError(409, 'not_found', 'There is no backup that passes its check to restore'));
    let result: RestoreResult;
    try {
      result = restoreBackup(config.dataDir, backupPath(config.dataDir, name, false), clock.now(), config.sqliteNativeBinding);
    } catch (err) {
      return next(err);
    }
    log.warn({ restored: result.restored, keptAside: result.keptAside }, 'backup restored from rescue mode; the desk starts');
    // Answered first: the desk then leaves rescue mode on the same port (the page waits for it).
    // The restored workspace's token (the caller holds the rescue token, which may differ): the page signs in with it.
    const database = path.join(config.dataDir, DATABASE_FILE);
    const answer: RestoreAnswer = { ...result, database, token: tokenIn(database, config.sqliteNativeBinding) ?? token };
    res.status(200).json(answer);
    restoring = new Promise<void>((resolve) => res.on('finish', resolve))
      .then(() => handOver())
      .catch((err: unknown) => log.fatal({ err }, 'the desk did not start after the restore; start it again'));
  });
  app.use('/api', (_req, res) => {
    res.status(503).json({
      error: 'database_damaged',
      message: `Desk's database failed SQLite's integrity check at start, so Desk runs in rescue mode and changes nothing. Open Desk to restore a backup, or run \`npm run restore -- <backup>\` (README, "Backups").`,
    });
  });
  const uiDir = config.uiDir;
  if (uiDir && fs.existsSync(path.join(uiDir, 'index.html'))) {
    app.use(express.static(uiDir, { index: false, maxAge: '1h' }));
    app.get('*', (req, res, next) => {
      if (path.extname(req.path) !== '') return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(uiDir, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => {
      res.type('text/plain').send(`Desk is in rescue mode: its database failed its check (${damage.message}). Restore a backup with \`npm run restore -- <backup>\`.`);
    });
  }
  app.use(errorHandler(log));

  const server = http.createServer(app);
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (err: unknown) => {
    await args.unlock();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    });
  async function handOver(): Promise<void> {
    await closeServer();
    await args.unlock();
    resumed = await args.resume(port);
  }
  let stopping: Promise<void> | null = null;
  return {
    url,
    get token() {
      return resumed?.token ?? token;
    },
    resumed: () => resumed,
    stop() {
      stopping ??= (async () => {
        if (restoring) await restoring.catch(() => {});
        if (resumed) return resumed.stop();
        await closeServer();
        await args.unlock();
      })();
      return stopping;
    },
  };
}
