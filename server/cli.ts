/** `npm start`: runs the desk headless under plain Node and prints where to open it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from './config';
import { startDesk } from './start';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const config = { ...configFromEnv(), uiDir: path.join(root, 'out/renderer') };
  const desk = await startDesk(config);
  console.log(`Desk is running. Data: ${config.dataDir}`);
  console.log(`Open: ${desk.url}/#token=${desk.token}`);
  console.log(`API reference: ${desk.url}/api/docs   (bearer token as above)`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Desk...`);
    desk.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
