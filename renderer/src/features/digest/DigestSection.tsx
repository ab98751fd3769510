import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { Schema } from '../../api/client';
import { fieldError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section, SettingRow } from '../../components/Section';
import { formatDateTime } from '../../lib/format';
import { useDashboardPrefs } from '../preferences/use-dashboard-prefs';
import { digestConfigQuery, gatingQuery, type DigestConfig, type SimulatedDate } from './api';
import { AuditTable } from './AuditTable';
import { hourLabel } from './format';
import { PreviewPanel } from './PreviewPanel';
import { RecipientsTable } from './RecipientsTable';
import { SimulatedDatePicker } from './SimulatedDatePicker';
import { YourDigest } from './YourDigest';
import './digest.css';

/** A titled part of the section that uses the card's full width (tables, the preview). */
function Block({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <div className="digest-block">
      <h3 className="setting__title">{title}</h3>
      <p className="setting__description">{description}</p>
      <div className="digest-block__body">{children}</div>
    </div>
  );
}

function Delivery({ config }: { config: DigestConfig }) {
  return (
    <SettingRow
      title="Delivery"
      description={
        <>
          The address and timezone are set in <Link to="/settings/$section" params={{ section: 'workspace' }}>Workspace</Link>; an admin’s digest goes to their own email.
        </>
      }
    >
      <dl className="digest-facts">
        <div>
          <dt>Digest address</dt>
          <dd>{config.digestEmail ?? <span className="muted">none set: the owner’s digest goes to the owner’s own email, if any</span>}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>
            daily at {hourLabel(config.localHour)} {config.timezone} (or later that day until {hourLabel(config.lastLocalHour)} if the desk was off), at most once every {config.intervalGateHours} hours, when approvals wait or the loop did something
          </dd>
        </div>
        <div>
          <dt>How</dt>
          <dd>{config.delivery === 'smtp' ? 'through the SMTP server (DESK_SMTP_URL)' : 'no SMTP server set: each digest is written as an .eml file to the outbox folder in the desk’s data folder'}</dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd>
            {formatDateTime(config.nextRunAt)} <span className="muted">(last: {config.lastRunAt ? formatDateTime(config.lastRunAt) : 'never'})</span>
          </dd>
        </div>
      </dl>
    </SettingRow>
  );
}

/**
 * Settings > Digest: how the daily digest goes out, your own digest preferences, what it would decide
 * for each recipient on any day, exactly what it would send (and a real one-shot send), and the audit
 * of every decision.
 */
export function DigestSection({ profile }: { profile: Schema<'WorkspaceProfile'> }) {
  const config = useQuery(digestConfigQuery());
  const { prefs } = useDashboardPrefs();
  const [simulatedDate, setSimulatedDate] = useState<SimulatedDate>(null);
  const gating = useQuery(gatingQuery(simulatedDate));
  const c = config.data;
  const me = prefs.userId || c?.recipients.find((r) => r.role === 'owner')?.userId || '';
  return (
    <Section id="digest" title="Digest" description="One email a day to each owner and admin: what waits for a decision, what the desk did, and what it spent.">
      {!c ? <QueryState isPending={config.isPending} error={config.error} onRetry={() => void config.refetch()} /> : null}
      {c ? (
        <>
          <Delivery config={c} />
          <YourDigest timezone={profile.timezone} />
          <Block title="Who gets it" description="Each owner and admin, and what the digest would decide for them now or on another day (their quiet weekends and quiet hours decide).">
            <SimulatedDatePicker timezone={c.timezone} value={simulatedDate} onChange={setSimulatedDate} error={fieldError(gating.error, 'simulatedDate')} />
            <RecipientsTable simulatedDate={simulatedDate} />
          </Block>
          <Block title="Preview" description="Exactly what a recipient would receive at that time. Rendering a preview sends and records nothing.">
            <PreviewPanel config={c} simulatedDate={simulatedDate} me={me} />
          </Block>
          <Block title="Audit" description="Why a digest was or was not sent: every decision of the daily run, each preview sent, and each change of digest preferences.">
            <AuditTable />
          </Block>
        </>
      ) : null}
    </Section>
  );
}
