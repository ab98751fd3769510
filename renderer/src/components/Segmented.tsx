import { useId } from 'react';
import './Segmented.css';

export interface SegmentedOption<V extends string> {
  value: V;
  label: string;
  description?: string;
}

/** A segmented control built on real radio inputs: keyboard, labels and screen readers work as usual. */
export function Segmented<V extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  variant = 'segmented',
}: {
  label: string;
  value: V | null;
  options: readonly SegmentedOption<V>[];
  onChange: (value: V) => void;
  disabled?: boolean;
  variant?: 'segmented' | 'cards';
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} className={variant === 'cards' ? 'choice-cards' : 'segmented'}>
      {options.map((o) => (
        <label key={o.value} className={`${variant === 'cards' ? 'choice-card' : 'segmented__option'}${value === o.value ? ' is-checked' : ''}`}>
          <input type="radio" name={name} value={o.value} checked={value === o.value} disabled={disabled} onChange={() => onChange(o.value)} />
          <span className="choice__label">{o.label}</span>
          {o.description ? <span className="choice__description">{o.description}</span> : null}
        </label>
      ))}
    </div>
  );
}
