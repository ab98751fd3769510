import { useQueryClient } from '@tanstack/react-query';
import { DIGEST_SECTION } from '../../api/rules.gen';
import { queryKeys } from '../../api/query-keys';
import { SettingRow } from '../../components/Section';
import { useDashboardPrefs, type PrefsChange } from '../preferences/use-dashboard-prefs';
import { HOURS, hourLabel, SECTION_LABELS } from './format';

/**
 * Your own digest: quiet weekends, quiet hours (whole hours of the workspace day; end before start runs
 * past midnight) and the sections you receive. Saved to your dashboard preferences; the desk records the
 * new gating in the digest audit, so the recipients, the preview and the audit are read again.
 */
export function YourDigest({ timezone }: { timezone: string }) {
  const qc = useQueryClient();
  const { prefs, update } = useDashboardPrefs();
  const save = (change: PrefsChange) => void update(change).then(() => qc.invalidateQueries({ queryKey: queryKeys.digest.all }));
  const start = prefs.digestQuietHoursStart;
  const end = prefs.digestQuietHoursEnd;
  const hasQuietHours = start !== null && end !== null;
  return (
    <>
      <SettingRow title="Quiet weekends" description={`No digest on Saturday and Sunday (${timezone} time).`}>
        <label className="checkbox">
          <input type="checkbox" checked={prefs.digestQuietWeekends} onChange={(e) => save({ digestQuietWeekends: e.target.checked })} />
          <span>Mute my digest on weekends</span>
        </label>
      </SettingRow>
      <SettingRow title="Quiet hours" description="No digest while these hours last. An end before the start runs past midnight (22:00 to 07:00).">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={hasQuietHours}
            onChange={(e) => save(e.target.checked ? { digestQuietHoursStart: 22, digestQuietHoursEnd: 7 } : { digestQuietHoursStart: null, digestQuietHoursEnd: null })}
          />
          <span>Keep quiet hours</span>
        </label>
        {hasQuietHours ? (
          <div className="inline-form digest-hours">
            <label className="digest-hours__pick">
              <span className="field__label">From</span>
              <select className="input input--select" aria-label="Quiet hours from" value={start} onChange={(e) => save({ digestQuietHoursStart: Number(e.target.value), digestQuietHoursEnd: end })}>
                {HOURS.filter((h) => h !== end).map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </select>
            </label>
            <label className="digest-hours__pick">
              <span className="field__label">Until</span>
              <select className="input input--select" aria-label="Quiet hours until" value={end} onChange={(e) => save({ digestQuietHoursStart: start, digestQuietHoursEnd: Number(e.target.value) })}>
                {HOURS.filter((h) => h !== start).map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ) : null}
      </SettingRow>
      <SettingRow title="Sections" description="What your digest includes. With none chosen, your digest is muted.">
        <fieldset className="digest-sections">
          <legend className="sr-only">Digest sections</legend>
          {DIGEST_SECTION.map((s) => (
            <label key={s} className="digest-sections__item">
              <input
                type="checkbox"
                checked={prefs.digestPersonalSections.includes(s)}
                // Kept in the digest's own order, whatever order they were ticked in.
                onChange={(e) => save({ digestPersonalSections: DIGEST_SECTION.filter((x) => (x === s ? e.target.checked : prefs.digestPersonalSections.includes(x))) })}
              />
              <span>
                <span className="digest-sections__label">{SECTION_LABELS[s].label}</span>
                <span className="digest-sections__description">{SECTION_LABELS[s].description}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </SettingRow>
    </>
  );
}
