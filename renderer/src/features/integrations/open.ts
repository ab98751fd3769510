import { navigate } from '../../lib/router';

export const INTEGRATIONS_SECTION_ID = 'integrations';

/**
 * Opens Settings at its Integrations section. Settings is loaded on demand and shows its sections once
 * the workspace has loaded, so the section is waited for (briefly) before scrolling to it.
 */
export function openIntegrations(): void {
  navigate('/settings');
  const started = Date.now();
  const tick = () => {
    const el = document.getElementById(INTEGRATIONS_SECTION_ID);
    if (el) el.scrollIntoView({ block: 'start' });
    else if (Date.now() - started < 5_000) setTimeout(tick, 50);
  };
  tick();
}
