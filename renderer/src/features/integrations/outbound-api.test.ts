import { describe, expect, it } from 'vitest';
import { fixClock } from '../../testing/clock';
import { useLiveStream } from '../live/live-store';
import { AFTER_EVENT_MS, OUTBOUND_BUSY_MS, OUTBOUND_IDLE_MS, outboundRefresh, type OutboundSubscription } from './outbound-api';

const sub = (pendingDeliveries: number) => ({ id: 'osub_1', pendingDeliveries }) as OutboundSubscription;

describe('outboundRefresh', () => {
  it('polls slowly when nothing is on its way', () => {
    fixClock('2026-11-29T12:00:00Z');
    expect(outboundRefresh(undefined)).toBe(OUTBOUND_IDLE_MS);
    expect(outboundRefresh([sub(0), sub(0)])).toBe(OUTBOUND_IDLE_MS);
  });

  it('polls every 2 s while a delivery waits', () => {
    fixClock('2026-11-29T12:00:00Z');
    expect(outboundRefresh([sub(0), sub(1)])).toBe(OUTBOUND_BUSY_MS);
  });

  it('polls every 2 s for a while after an event, which the desk may be delivering', () => {
    const at = fixClock('2026-11-29T12:00:00Z');
    useLiveStream.getState().heard(at - AFTER_EVENT_MS + 1);
    expect(outboundRefresh([sub(0)])).toBe(OUTBOUND_BUSY_MS);
    useLiveStream.getState().heard(at - AFTER_EVENT_MS);
    expect(outboundRefresh([sub(0)])).toBe(OUTBOUND_IDLE_MS);
  });
});
