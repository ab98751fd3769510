/**
 * What the desktop notification says about new cost alerts (spikes and chronic warnings from the
 * cost guard). Pure (no Electron import), so it is tested under Node; main/index.ts only shows it.
 */
import type { CostAlertsMessage } from './desk-protocol';

type Alert = CostAlertsMessage['alerts'][number];

/** The Cost page, where every alert can be acknowledged. */
export const COST_PATH = '/cost';

const NOUN = { task: 'Task', source: 'Source', tag: 'Tag', assignee: 'Queue of', memory: 'Memory entry' } as const;
const usd = (n: number) => (n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);

function describe(a: Alert): string {
  const who = `${NOUN[a.dimension]} “${a.label.length > 60 ? `${a.label.slice(0, 59).trimEnd()}…` : a.label}”`;
  const ratio = a.spikeRatio === null ? 'with no spend the week before' : `${a.spikeRatio}× its 7-day average`;
  return a.kind === 'chronic_warning' ? `${who} has spiked ${a.consecutiveSpikeDays} days in a row (${usd(a.todayUsd)} today).` : `${who} spent ${usd(a.todayUsd)} today, ${ratio}.`;
}

export interface CostNotice {
  title: string;
  body: string;
  path: string;
}

/** One notification for the alerts of one detector run (none: null); it opens the Cost page. */
export function costAlertNotice(alerts: readonly Alert[]): CostNotice | null {
  if (alerts.length === 0) return null;
  const paused = alerts.some((a) => a.paused) ? ' Paused until you acknowledge it on the Cost page.' : '';
  if (alerts.length === 1) {
    const [a] = alerts;
    return { title: a.kind === 'chronic_warning' ? 'Chronic cost warning' : 'Cost spike', body: `${describe(a)}${paused}`, path: COST_PATH };
  }
  return { title: `${alerts.length} cost alerts`, body: `${describe(alerts[0])} And ${alerts.length - 1} more.${paused}`, path: COST_PATH };
}
