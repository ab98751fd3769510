/** The checkbox that selects every item of a list: checked when all are selected, half-checked when some are. */
export function SelectAllCheckbox({ total, selected, onChange, label }: { total: number; selected: number; onChange: (all: boolean) => void; label?: string }) {
  const all = total > 0 && selected === total;
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={all}
      ref={(el) => {
        if (el) el.indeterminate = selected > 0 && !all;
      }}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}
