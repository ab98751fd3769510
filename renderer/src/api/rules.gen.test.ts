import { describe, expect, it } from 'vitest';
import { LIMITS, QUERY, REACTION_EMOJI, SIGNAL_KIND, SPIKE_ACTION } from './rules.gen';

/** rules.gen.ts is written by `npm run gen` from the OpenAPI document: these are the API's own rules. */
describe('generated rules', () => {
  it('carries the enums in the API order, null included where the schema allows it', () => {
    expect(SIGNAL_KIND).toEqual(['news', 'mention', 'review', 'message', 'alert', 'metric', 'note', 'other']);
    expect(REACTION_EMOJI).toEqual(['👍', '👀', '🎯', '❤️', '🚀']);
    expect(SPIKE_ACTION).toEqual(['none', 'pause', null]);
  });

  it('carries the bounds of body properties, through nullable types', () => {
    expect(LIMITS.NewSignalBody.title).toEqual({ minLength: 1, maxLength: 200 });
    expect(LIMITS.LoopIntervalBody.loopIntervalMinutes).toEqual({ minimum: 1, maximum: 1440 });
    expect(LIMITS.AutoArchiveConfig.staleTaskAutoArchiveDays).toEqual({ minimum: 7, maximum: 90 });
    expect(LIMITS.SignalBulkBody.signalIds.maxItems).toBe(50);
  });

  it('carries the bounds and defaults of query parameters per operation', () => {
    expect(QUERY.listActivity.limit).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(QUERY.listSignals.limit.default).toBe(50);
  });
});
