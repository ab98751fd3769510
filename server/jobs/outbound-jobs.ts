import type { OutboundService } from '../domain/outbound/outbound-service';
import type { Services } from '../services';
import { EVERY_DAY, type Job } from './scheduler';

export const OUTBOUND_DELIVER_JOB = 'outbound.deliver';
export const OUTBOUND_PRUNE_JOB = 'outbound.prune';
/** The safety net under the wake-up on outbox writes, and what sends retries when they fall due. */
export const OUTBOUND_DELIVER_EVERY_MS = 5_000;

/** Fans out the outbox and starts the due POSTs (it does not wait for them: they may take 15 s each). */
export function outboundDeliverJob(outbound: OutboundService): Job {
  return { name: OUTBOUND_DELIVER_JOB, everyMs: OUTBOUND_DELIVER_EVERY_MS, run: () => outbound.worker.pump() };
}

/** Retention: attempts, finished deliveries and delivered outbox rows older than 30 days. */
export function outboundPruneJob(outbound: OutboundService): Job {
  return {
    name: OUTBOUND_PRUNE_JOB,
    everyMs: EVERY_DAY,
    run: async () => {
      await outbound.log.prune();
    },
  };
}

export function outboundJobs(s: Services): Job[] {
  return [outboundDeliverJob(s.outbound), outboundPruneJob(s.outbound)];
}
