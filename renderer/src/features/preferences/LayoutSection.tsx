import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { FormError } from '../../components/FormError';
import { Section, SettingRow } from '../../components/Section';
import { Segmented } from '../../components/Segmented';
import { SuccessNotice } from '../../components/SuccessNotice';
import type { Density } from './api';
import { useDashboardPrefs } from './use-dashboard-prefs';

const DENSITY_OPTIONS: readonly { value: Density; label: string; description: string }[] = [
  { value: 'comfortable', label: 'Comfortable', description: 'Roomy cards and rows' },
  { value: 'compact', label: 'Compact', description: 'More on the screen at once' },
];

/** Settings > Layout: density for the whole app, and putting every layout preference back to the defaults. */
export function LayoutSection() {
  const { prefs, update, reset } = useDashboardPrefs();
  const [resetting, setResetting] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState<unknown>(null);
  const doReset = async () => {
    setResetting(true);
    setDone('');
    setError(null);
    try {
      await reset();
      setDone('Layout reset: Home, Tasks, Cost and Activity show the defaults again.');
    } catch (err) {
      setError(err);
    } finally {
      setResetting(false);
    }
  };
  return (
    <Section id="layout" title="Layout" description="How the pages are arranged for you. Kept on the desk, so every window and browser shows the same layout.">
      <SettingRow title="Density" description="Compact uses smaller type and tighter spacing on every page.">
        <Segmented label="Density" value={prefs.density} options={DENSITY_OPTIONS} variant="cards" onChange={(density) => void update({ density })} />
      </SettingRow>
      <SettingRow
        title="Reset layout"
        description="All Home panels shown in the default order, the smart task order, every cost column in the default order, comfortable density, no saved comment filters, and your digest preferences back to the defaults."
      >
        <div className="inline-form">
          <ConfirmButton label="Reset layout" question="Reset your layout to the defaults?" confirmLabel="Reset" small={false} disabled={resetting} onConfirm={() => void doReset()} />
        </div>
        <SuccessNotice message={done} />
        <FormError error={error} />
      </SettingRow>
    </Section>
  );
}
