import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

const payload = JSON.stringify({ id: fid('evt', 3), event: 'artifact.approved', createdAt: at(9, '11:00:00'), data: { artifactId: IDS.artifact } });

export const fixture: VersionFixture = {
  rows: {
    outbound_subscriptions: [
      {
        id: IDS.subscription,
        url: 'http://127.0.0.1:9/hooks/desk',
        label: 'Team chat',
        secret: 'whsec_' + 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
        secret_hint: 'whsec_…ZWY=',
        active: 0,
        disabled_reason: 'failing',
        disabled_at: at(9, '12:00:00'),
        failing_since: at(4, '12:00:00'),
        created_at: at(3, '12:00:00'),
        updated_at: at(9, '12:00:00'),
      },
    ],
    outbound_subscription_events: [
      { subscription_id: IDS.subscription, event: 'artifact.approved' },
      { subscription_id: IDS.subscription, event: 'task.created' },
    ],
    outbound_deliveries: [
      {
        id: IDS.delivery,
        subscription_id: IDS.subscription,
        event_id: fid('evt', 3),
        event: 'artifact.approved',
        payload,
        state: 'given_up',
        attempts: 2,
        next_attempt_at: null,
        last_attempt_at: at(9, '11:05:00'),
        last_status_code: 503,
        created_at: at(9, '11:00:00'),
        finished_at: at(9, '11:05:00'),
      },
      {
        id: IDS.pendingDelivery,
        subscription_id: IDS.subscription,
        event_id: fid('evt', 4),
        event: 'task.created',
        payload: JSON.stringify({ id: fid('evt', 4), event: 'task.created', createdAt: at(9, '12:00:00'), data: { taskId: IDS.blockerTask } }),
        state: 'pending',
        attempts: 0,
        next_attempt_at: at(11, '12:00:00'),
        last_attempt_at: null,
        last_status_code: null,
        created_at: at(9, '12:00:00'),
        finished_at: null,
      },
    ],
    outbound_attempts: [
      { id: fid('att', 1), delivery_id: IDS.delivery, subscription_id: IDS.subscription, event_id: fid('evt', 3), event: 'artifact.approved', url: 'http://127.0.0.1:9/hooks/desk', attempt_number: 1, trigger: 'scheduled', outcome: 'failed', status_code: 503, error: null, response_excerpt: 'Service Unavailable', duration_ms: 120, next_retry_at: at(9, '11:05:00'), created_at: at(9, '11:00:01') },
      { id: fid('att', 2), delivery_id: IDS.delivery, subscription_id: IDS.subscription, event_id: fid('evt', 3), event: 'artifact.approved', url: 'http://127.0.0.1:9/hooks/desk', attempt_number: 2, trigger: 'manual', outcome: 'failed', status_code: null, error: 'connect ECONNREFUSED 127.0.0.1:9', response_excerpt: null, duration_ms: 3, next_retry_at: null, created_at: at(9, '11:05:00') },
    ],
  },
};
