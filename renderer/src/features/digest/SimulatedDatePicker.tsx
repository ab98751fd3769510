import { useState } from 'react';
import { Field } from '../../components/Field';
import { now } from '../../lib/clock';
import { dayIn } from '../preferences/buckets';
import type { SimulatedDate } from './api';
import { addDays, HOURS, hourLabel } from './format';

/** The API accepts a simulated date within this many days of now, either way. */
const WINDOW_DAYS = 60;

/**
 * "As of": now, or a workspace-local day and hour within 60 days either way (08:00, when the daily
 * digest goes out, unless another hour is picked). Emits the API's simulatedDate (`YYYY-MM-DDTHH:00`,
 * read by the desk in the workspace timezone) or null for now.
 */
export function SimulatedDatePicker({ timezone, value, onChange, error }: { timezone: string; value: SimulatedDate; onChange: (value: SimulatedDate) => void; error?: string }) {
  const today = dayIn(now(), timezone);
  const [day, setDay] = useState(value?.slice(0, 10) ?? today);
  const [hour, setHour] = useState(value ? Number(value.slice(11, 13)) : 8);
  const emit = (d: string, h: number) => onChange(d ? `${d}T${hourLabel(h)}` : null);
  return (
    <div className="digest-asof" role="group" aria-label="Decide as of">
      <div className="segmented" role="radiogroup" aria-label="As of">
        <label className={`segmented__option${value === null ? ' is-checked' : ''}`}>
          <input type="radio" name="digest-asof" checked={value === null} onChange={() => onChange(null)} />
          <span className="choice__label">Now</span>
        </label>
        <label className={`segmented__option${value !== null ? ' is-checked' : ''}`}>
          <input type="radio" name="digest-asof" checked={value !== null} onChange={() => emit(day, hour)} />
          <span className="choice__label">Another day</span>
        </label>
      </div>
      {value !== null ? (
        <div className="digest-asof__when">
          <Field label="Day" hint={`Within ${WINDOW_DAYS} days of today, ${timezone} time`} error={error}>
            {(control) => (
              <input
                {...control}
                className="input digest-asof__day"
                type="date"
                value={day}
                min={addDays(today, -WINDOW_DAYS)}
                max={addDays(today, WINDOW_DAYS)}
                onChange={(e) => {
                  setDay(e.target.value);
                  emit(e.target.value, hour);
                }}
              />
            )}
          </Field>
          <Field label="Hour">
            {(control) => (
              <select
                {...control}
                className="input input--select digest-asof__hour"
                value={hour}
                onChange={(e) => {
                  setHour(Number(e.target.value));
                  emit(day, Number(e.target.value));
                }}
              >
                {HOURS.map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      ) : null}
    </div>
  );
}
