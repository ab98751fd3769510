// @ts-check
/**
 * A desk alone in its own process, as it ships: plain Node running electron-vite's bundle of the
 * server (out/main/desk-server.js, the code `npm start` and the desktop's utility process run), no
 * TypeScript loader, so rss.ts reads the server's own memory from /proc. argv: the data folder and
 * the instant the desk's clock stands at (the dataset's end), then optionally `synchronous=NORMAL`
 * (the hot-path ratios compare with a baseline at that setting) and `webhook-limit=N` (the inbound
 * webhook's deliveries per minute per token: the hot paths send more in a minute than the default) and
 * `ui=<dir>` (the built UI it serves, as `npm start` does: ui-pages.ts loads its pages in Chromium). Prints one JSON line { url, token }
 * when it answers, and stops cleanly when its stdin closes; a `memory` line on stdin is answered with
 * one JSON line of its process.memoryUsage() (rss.ts reports where the resident set sits). Plain JavaScript: under tsx the
 * loader, esbuild's service and the source maps would be measured too.
 */
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';

const [dataDir, at, ...flags] = process.argv.slice(2);
if (!dataDir || !at || Number.isNaN(Date.parse(at))) throw new Error('usage: node serve-child.mjs <data dir> <ISO instant>');
const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../out/main/desk-server.js');
/** @type {typeof import('../../start')} */
const { startDesk } = await import(pathToFileURL(bundle).href);
// A clock that stands still at the dataset's end (a ManualClock nobody moves).
const clock = { now: () => new Date(at) };
const webhookLimit = flags.find((f) => f.startsWith('webhook-limit='))?.slice('webhook-limit='.length);
const uiDir = flags.find((f) => f.startsWith('ui='))?.slice('ui='.length);
const desk = await startDesk(
  {
    dataDir,
    port: 0,
    host: '127.0.0.1',
    engine: 'local',
    openai: {},
    seed: { plan: 'free', timezone: 'UTC' },
    ...(webhookLimit === undefined ? {} : { webhookRateLimitPerMinute: Number(webhookLimit) }),
    ...(uiDir === undefined ? {} : { uiDir }),
  },
  { clock, runScheduler: false },
);
if (flags.includes('synchronous=NORMAL')) await sql`PRAGMA synchronous = NORMAL`.execute(desk.services.db);
process.stdout.write(`${JSON.stringify({ url: desk.url, token: desk.token })}\n`);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'memory') process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
});
process.stdin.on('end', () => {
  void desk.stop().then(() => process.exit(0));
});
