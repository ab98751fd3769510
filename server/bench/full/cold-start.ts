/** Cold start to ready: startDesk on a fresh copy of the dataset until it answers GET /workspace. */
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../../core/clock';
import { startTestDesk } from '../../testing/desk';
import { copyToFreshDir, DATASET_END } from './dataset';

export async function coldStart(file: string): Promise<number> {
  const dataDir = copyToFreshDir(file);
  const t0 = performance.now();
  const desk = await startTestDesk({ dataDir, ownsDataDir: true, clock: new ManualClock(DATASET_END) });
  try {
    const res = await desk.api('GET', '/api/v1/workspace');
    if (res.status !== 200) throw new Error(`cold start: GET /workspace HTTP ${res.status}`);
    return performance.now() - t0;
  } finally {
    await desk.stop();
  }
}
