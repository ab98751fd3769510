/** Pure helpers of the Integrations panel. */

export type RelayTone = 'success' | 'info' | 'danger' | 'neutral';

export function relayStateBadge(state: string): { text: string; tone: RelayTone } {
  switch (state) {
    case 'connected':
      return { text: 'Connected', tone: 'success' };
    case 'connecting':
      return { text: 'Connecting', tone: 'info' };
    case 'error':
      return { text: 'Error', tone: 'danger' };
    default:
      return { text: 'Disabled', tone: 'neutral' };
  }
}
