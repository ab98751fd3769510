import { IDS } from './ids';
import type { VersionFixture } from './types';

export const fixture: VersionFixture = {
  set: { signals: { [IDS.webhookSignal]: { external_id: 'pagerduty-incident-7' } } },
};
