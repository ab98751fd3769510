import { describe, expect, it } from 'vitest';
import { relayStateBadge } from './format';

describe('relayStateBadge', () => {
  it('maps each state', () => {
    expect(relayStateBadge('connected')).toEqual({ text: 'Connected', tone: 'success' });
    expect(relayStateBadge('connecting').text).toBe('Connecting');
    expect(relayStateBadge('error').tone).toBe('danger');
    expect(relayStateBadge('disabled').text).toBe('Disabled');
  });
});
