/** `npm start`: runs the desk headless under plain Node and prints where to open it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from './config';
import { createLogger, type Logger } from './core/log';
import { startDesk } from './start';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let log: Logger | undefined;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

try {
  const config = { ...configFromEnv(), uiDir: path.join(root, 'out/renderer') };
  // The log file in the data folder, and the same events as short lines here.
  const logger = createLogger({ dataDir: config.dataDir, secrets: [config.seed.ingestToken, config.openai.apiKey], toStdout: true });
  log = logger;
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    void logger.close().finally(() => process.exit(1));
  });
  const desk = await startDesk(config, { logger });
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
