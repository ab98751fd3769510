import { useEffect } from 'react';
import { usePrefsNotice } from './notice-store';
import { useDashboardPrefs } from './use-dashboard-prefs';
import './density.css';
import './preferences.css';

/**
 * Applies the member's density to the whole app as `<html data-density="...">` (density.css reads it),
 * so every page, card and table follows one setting.
 */
export function DensityAttribute() {
  const { prefs } = useDashboardPrefs();
  useEffect(() => {
    document.documentElement.dataset.density = prefs.density;
  }, [prefs.density]);
  return null;
}

/** The quiet notice of a layout change the desk did not keep, above the page, until dismissed. */
export function PrefsNotice() {
  const message = usePrefsNotice((s) => s.message);
  const dismiss = usePrefsNotice((s) => s.dismiss);
  if (!message) return null;
  return (
    <div className="notice notice--info prefs-notice" role="status">
      <span>{message}</span>
      <button type="button" className="link-button small" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
