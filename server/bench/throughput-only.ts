/**
 * `npx tsx server/bench/throughput-only.ts [rounds] [requests]`: only the throughput section of
 * `npm run bench` (for profiling with `node --cpu-prof --import tsx`).
 */
import { measureThroughput, printThroughput } from './throughput';

const rounds = Number(process.argv[2] ?? 3);
const requests = Number(process.argv[3] ?? 3000);
const report = await measureThroughput({ rounds, requests });
printThroughput(report);
process.exit(report.missed > 0 ? 1 : 0);
