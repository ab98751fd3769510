/**
 * A desk alone in its own process on a copy of the dataset (argv[2]: its data folder), so its
 * memory is the server's only (rss.ts reads it from /proc). Prints one JSON line { url, token }
 * when it answers, and stops cleanly when its stdin closes.
 */
import { ManualClock } from '../../core/clock';
import { startDesk } from '../../start';
import { DATASET_END } from './dataset';

const dataDir = process.argv[2];
const desk = await startDesk(
  { dataDir, port: 0, host: '127.0.0.1', engine: 'local', openai: {}, seed: { plan: 'free', timezone: 'UTC' } },
  { clock: new ManualClock(DATASET_END), runScheduler: false },
);
process.stdout.write(`${JSON.stringify({ url: desk.url, token: desk.token })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void desk.stop().then(() => process.exit(0));
});
