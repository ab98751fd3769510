import type { Db } from '../../../db/connection';
import { onTableWrite } from '../../../db/statement-cache';
import type { Clock } from '../../core/clock';
import { EVENT_CATALOG, EVENT_NAMES, type EventName } from '../catalog/events';
import { DeliveryLog } from './delivery-log';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker';
import { SubscriptionService } from './subscription-service';
import type { OutboundSubscription } from './subscription-store';

export interface OutboundEventInfo {
  name: EventName;
  /** The part before the dot (task, artifact, source, ...): the UI groups the picker by it. */
  area: string;
  description: string;
}

export interface OutboundSubscriptionList {
  subscriptions: OutboundSubscription[];
  /** The full event vocabulary a subscription can choose from. */
  events: OutboundEventInfo[];
}

export interface OutboundOptions extends DeliveryWorkerOptions {
  /**
   * Wake the worker after every write to the outbox (it sees every write through the main
   * connection) and once at start, so due deliveries (also those of before a restart) go out.
   * Off in tests, which call `worker.settle()`.
   */
  deliverOnWrite?: boolean;
}

export const outboundVocabulary = (): OutboundEventInfo[] => EVENT_NAMES.map((name) => ({ name, area: name.split('.')[0], description: EVENT_CATALOG[name].description }));

/** Outbound webhooks: subscriptions, the delivery worker and the delivery log. */
export class OutboundService {
  readonly subscriptions: SubscriptionService;
  readonly worker: DeliveryWorker;
  readonly log: DeliveryLog;
  private unsubscribe: (() => void) | null = null;

  constructor(db: Db, clock: Clock, options: OutboundOptions = {}) {
    this.subscriptions = new SubscriptionService(db, clock);
    this.worker = new DeliveryWorker(db, clock, options);
    this.log = new DeliveryLog(db, clock, this.worker);
    if (options.deliverOnWrite) {
      this.unsubscribe = onTableWrite(db, 'outbox_events', () => this.worker.kick());
      this.worker.kick();
    }
  }

  async list(): Promise<OutboundSubscriptionList> {
    return { subscriptions: await this.subscriptions.list(), events: outboundVocabulary() };
  }

  /** Stops waking and aborts the POSTs under way (their deliveries stay pending). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.worker.stop();
  }
}
