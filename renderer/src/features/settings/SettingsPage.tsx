import { useQuery } from '@tanstack/react-query';
import { PageHeader, QueryState } from '../../components/Page';
import { SectionNav } from '../../components/SectionNav';
import { workspaceQuery } from './api';
import { ApprovalSection } from './components/ApprovalSection';
import { ArchivingSection } from './components/ArchivingSection';
import { CostSection } from './components/CostSection';
import { FocusSection } from './components/FocusSection';
import { LoopSection } from './components/LoopSection';
import { WorkspaceSection } from './components/WorkspaceSection';
import { IntegrationsSection } from '../integrations/IntegrationsSection';

const SECTIONS = [
  { id: 'loop', label: 'Loop' },
  { id: 'approval', label: 'Approval policy' },
  { id: 'focus', label: 'Focus' },
  { id: 'archiving', label: 'Archiving' },
  { id: 'cost', label: 'Cost guardrails' },
  { id: 'workspace', label: 'Workspace' },
  { id: 'integrations', label: 'Integrations' },
];

export function SettingsPage() {
  const profile = useQuery(workspaceQuery());
  return (
    <div className="page">
      <PageHeader title="Settings" description="How the desk runs. Every change takes effect at once and is written to the activity log." />
      <SectionNav label="Settings sections" sections={SECTIONS} />
      <QueryState isPending={profile.isPending} error={profile.error} onRetry={() => void profile.refetch()} />
      {profile.data ? (
        <div className="stack">
          <LoopSection profile={profile.data} />
          <ApprovalSection profile={profile.data} />
          <FocusSection profile={profile.data} />
          <ArchivingSection profile={profile.data} />
          <CostSection profile={profile.data} />
          <WorkspaceSection profile={profile.data} />
          <IntegrationsSection />
        </div>
      ) : null}
    </div>
  );
}
