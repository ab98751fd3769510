// @ts-check
/**
 * The soak's desk (soak.ts): the bundled server (out/main/desk-server.js, what `npm start` runs) in a
 * process of its own, as a user runs it: system clock, scheduler on (cycles, feed polls, sweeps),
 * synchronous FULL, cycles on their worker thread. argv: the data folder. Prints one JSON line
 * { url, token } when it answers; a `memory` line on stdin is answered with one JSON line of its
 * process.memoryUsage(); stops cleanly when its stdin closes. Plain JavaScript, so the figures are
 * the desk's, not a TypeScript loader's.
 */
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: node soak-child.mjs <data dir>');
const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../out/main/desk-server.js');
/** @type {typeof import('../start')} */
const { startDesk } = await import(pathToFileURL(bundle).href);
const desk = await startDesk({
  dataDir,
  port: 0,
  host: '127.0.0.1',
  engine: 'local',
  openai: {},
  // Team: the plan whose feed cadence floor lets a feed be polled every minute.
  seed: { plan: 'team', timezone: 'UTC' },
});
process.stdout.write(`${JSON.stringify({ url: desk.url, token: desk.token })}\n`);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'memory') process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
});
process.stdin.on('end', () => {
  void desk.stop().then(() => process.exit(0));
});
