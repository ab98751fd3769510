/** The review keys, as the `?` help lists them: the split view's and an output's page share most. */

export type KeyList = readonly (readonly [keys: string, what: string])[];

export const QUEUE_KEYS: KeyList = [
  ['j / k', 'next / previous output'],
  ['a', 'approve the selected output'],
  ['e', 'archive the selected output'],
  ['i', 'edit the selected draft (Esc cancels, Ctrl+Enter saves)'],
  ['r', 'reopen the selected approved or archived output'],
  ['u / z / Ctrl+Z', 'undo the last decision while its notice shows'],
  ['o / Enter', 'open the selected output'],
  ['?', 'show or hide this help'],
];

export const PAGE_KEYS: KeyList = [
  ['a', 'approve this output'],
  ['e', 'archive this output'],
  ['i', 'edit this draft (Esc cancels, Ctrl+Enter saves)'],
  ['r', 'reopen this approved or archived output'],
  ['u / z / Ctrl+Z', 'undo the last decision while its notice shows'],
  ['?', 'show or hide this help'],
];

export function KeyHelp({ keys }: { keys: KeyList }) {
  return (
    <section className="card card--padded queue-help" aria-label="Keyboard shortcuts">
      <h2 className="small">Keyboard shortcuts</h2>
      <dl>
        {keys.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
