import { describe, expect, it } from 'vitest';
import { inboundRefresh, RELAY_CONNECTING_POLL_MS, RELAY_IDLE_POLL_MS, type RelayStatus } from './api';

const relay = (state: RelayStatus['state']) => ({ state }) as RelayStatus;

describe('inboundRefresh', () => {
  it('polls every second while the relay is connecting, every 10 s otherwise', () => {
    expect(inboundRefresh(relay('connecting'))).toBe(RELAY_CONNECTING_POLL_MS);
    for (const state of ['disabled', 'connected', 'error'] as const) expect(inboundRefresh(relay(state))).toBe(RELAY_IDLE_POLL_MS);
    expect(inboundRefresh(undefined)).toBe(RELAY_IDLE_POLL_MS);
  });
});
