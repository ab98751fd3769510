/**
 * A local-engine cycle over 1,000 new signals on the full dataset: the signals arrive through the
 * webhook's delivery path, then one Run now with the built-in local engine, timed end to end.
 * Measured twice, each after `loop.prepare()` as startDesk calls it (the cycle worker started, the
 * workspace engine's token counter loaded: server/engine/usage.ts): the first is the desk's first
 * cycle (its code not yet optimised), the second what every later cycle costs.
 */
import { performance } from 'node:perf_hooks';
import { inTransaction } from '../../../db/transactions';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import type { TestDesk } from '../../testing/desk';

export interface CycleFigure {
  ms: number;
  status: string;
  signalsRead: number;
  engineMs: number | null;
  durationMs: number | null;
  /**
   * CPU time of the whole process (the cycle worker's thread, mostly) while the cycle ran: on a
   * machine shared with other work the wall time follows the load (the worker runs at nice 10);
   * this figure much less so.
   */
  cpuMs: number;
}

/** 1,000 new signals through the webhook path, then one Run now with the built-in local engine. */
export async function cycleOver1000(desk: TestDesk, round = 0): Promise<CycleFigure> {
  const source = await desk.services.db.selectFrom('sources').select('id').orderBy('id').executeTakeFirstOrThrow();
  await inTransaction(desk.services.db, async () => {
    for (let b = 0; b < 10; b++) {
      const signals = Array.from({ length: 100 }, (_, k) => ({ kind: 'news', priority: 'normal', title: `Pricing page checkout ${round}-${b}-${k}`, detail: 'Customers report the checkout refund flow fails on mobile since the last release.', sourceId: source.id }));
      await desk.services.signals.receive(readInboundDelivery({ signals }, `cycle-bench-${round}-${b}`));
    }
  });
  await desk.services.loop.prepare();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await desk.services.loop.runNow();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const row = await desk.services.db.selectFrom('runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
  return { ms, status: row.status, signalsRead: (JSON.parse(row.readSignalIds) as string[]).length, engineMs: row.engineMs, durationMs: row.durationMs, cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
}
