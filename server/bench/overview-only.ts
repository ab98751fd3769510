/** `npx tsx server/bench/overview-only.ts`: the overview bench alone (npm run bench runs it with the rest). */
import { benchOverview } from './overview';

for (const r of await benchOverview()) console.log(`${r.name}: ${Math.round(r.value * 100) / 100} ${r.unit} (target < ${r.target})`);
