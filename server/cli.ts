/**
 * `npm start`: runs the desk headless under plain Node and prints where to open it. `npm start` runs
 * the bundle electron-vite builds from this file (out/main/cli.js); `node --import tsx server/cli.ts`
 * runs it from source (tests that change the code under them).
 *
 * `npm run restore -- <backup>` (`desk restore <backup>`): replaces the data folder's database with a
 * backup (a file name in `backups/` or a path) while no desk runs there; the old files are kept
 * aside as `desk.sqlite.damaged-<time>`. `npm run restore` alone lists the backups, each checked.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from './config';
import { createLogger, tolerateClosedOutput, type Logger } from './core/log';
import { startDesk } from './start';
import { runRestoreCommand } from './restore-command';

const here = path.dirname(fileURLToPath(import.meta.url));
// The built UI is out/renderer: beside out/main when bundled, under the repository from source.
const uiDir = path.basename(here) === 'server' ? path.join(here, '..', 'out', 'renderer') : path.join(here, '..', 'renderer');

let log: Logger | undefined;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

tolerateClosedOutput();

/** How long a fatal error waits for the log file to take its last lines before the process leaves anyway. */
const FATAL_EXIT_GRACE_MS = 5_000;

if (process.argv[2] === 'restore') process.exit(runRestoreCommand(process.argv.slice(3), configFromEnv()));

try {
  const config = { ...configFromEnv(), uiDir };
  // The log file in the data folder, and the same events as short lines here.
  const logger = createLogger({ dataDir: config.dataDir, secrets: [config.seed.ingestToken, config.openai.apiKey], toStdout: true });
  log = logger;
  let failing = false;
  process.on('uncaughtException', (err) => {
    // Once: an error while logging the first must not log again, and the process leaves even if the log never closes.
    if (failing) return;
    failing = true;
    logger.fatal({ err }, 'uncaught exception');
    setTimeout(() => process.exit(1), FATAL_EXIT_GRACE_MS).unref();
    void logger.close().finally(() => process.exit(1));
  });
  const desk = await startDesk(config, { logger });
  if (desk.mode === 'rescue') {
    console.log(`Desk is in RESCUE MODE: its database (${config.dataDir}/desk.sqlite) failed SQLite's integrity check, so Desk changes nothing.`);
    console.log('Open the link below to restore the newest good backup with one click, or stop Desk and run `npm run restore -- <backup>`.');
  }
  console.log(`Desk is running. Data: ${config.dataDir}`);
  console.log(`Open: ${desk.url}/#token=${desk.token}`);
  console.log(`API reference: ${desk.url}/api/docs   (bearer token as above)`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Desk...`);
    desk.stop().then(
      () => logger.close().finally(() => process.exit(0)),
      (err: unknown) => {
        logger.error({ err }, 'desk did not stop cleanly');
        void logger.close().finally(() => process.exit(1));
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (err) {
  // A bad configuration fails before there is a log to write to.
  if (log) log.fatal(`desk could not start: ${errorText(err)}`);
  else console.error(errorText(err));
  await log?.close();
  process.exit(1);
}
