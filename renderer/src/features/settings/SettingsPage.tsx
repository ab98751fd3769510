import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PageHeader, QueryState } from '../../components/Page';
import { holdSection, SectionNav, scrollToSection } from '../../components/SectionNav';
import { workspaceQuery } from './api';
import { ApprovalSection } from './components/ApprovalSection';
import { ArchivingSection } from './components/ArchivingSection';
import { BackupsSection } from './components/BackupsSection';
import { CostSection } from './components/CostSection';
import { EngineSection } from './components/EngineSection';
import { FocusSection } from './components/FocusSection';
import { LoopSection } from './components/LoopSection';
import { WorkspaceSection } from './components/WorkspaceSection';
import { IntegrationsSection } from '../integrations/IntegrationsSection';
import { OutboundWebhooksSection } from '../integrations/OutboundWebhooksSection';
import { MembersSection } from '../members/MembersSection';
import { TemplatesSection } from '../templates/TemplatesSection';
import { ExportsSection } from '../exports/ExportsSection';
import { DigestSection } from '../digest/DigestSection';
import { LayoutSection } from '../preferences/LayoutSection';
import { BadgeSection } from '../badge/BadgeSection';
import { OnboardingSection } from '../onboarding/StartFromTemplate';
import './settings.css';

/** Each section's id is its URL: /settings/<id>. */
const SECTIONS = [
  { id: 'loop', label: 'Loop' },
  { id: 'approval', label: 'Approval policy' },
  { id: 'focus', label: 'Focus' },
  { id: 'archiving', label: 'Archiving' },
  { id: 'cost', label: 'Cost guardrails' },
  { id: 'engine', label: 'AI engine' },
  { id: 'workspace', label: 'Workspace' },
  { id: 'members', label: 'Members' },
  { id: 'digest', label: 'Digest' },
  { id: 'layout', label: 'Layout' },
  { id: 'templates', label: 'Templates' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'badge', label: 'Health badge' },
  { id: 'backups', label: 'Backups' },
  { id: 'data', label: 'Data' },
  { id: 'onboarding', label: 'Start from a template' },
];

export function SettingsPage() {
  const profile = useQuery(workspaceQuery());
  const { section } = useParams({ strict: false });
  const navigate = useNavigate();
  const loaded = Boolean(profile.data);
  // The sections exist once the profile has loaded: a deep link scrolls then (and holds while the
  // sections above it load), a section link at once.
  useEffect(() => (loaded && section ? holdSection(section) : undefined), [loaded, section]);
  return (
    <div className="page">
      <PageHeader title="Settings" description="How the desk runs. Every change takes effect at once and is written to the activity log." />
      <SectionNav
        label="Settings sections"
        sections={SECTIONS}
        hrefFor={(id) => `/settings/${id}`}
        onOpen={(id) => {
          void navigate({ to: '/settings/$section', params: { section: id }, replace: true, resetScroll: false });
          // Also when the URL already names it (the user scrolled away since).
          scrollToSection(id);
        }}
      />
      <QueryState isPending={profile.isPending} error={profile.error} onRetry={() => void profile.refetch()} />
      {profile.data ? (
        <div className="stack">
          <LoopSection profile={profile.data} />
          <ApprovalSection profile={profile.data} />
          <FocusSection profile={profile.data} />
          <ArchivingSection profile={profile.data} />
          <CostSection profile={profile.data} />
          <EngineSection />
          <WorkspaceSection profile={profile.data} />
          <MembersSection />
          <DigestSection profile={profile.data} />
          <LayoutSection />
          <TemplatesSection />
          <IntegrationsSection />
          <OutboundWebhooksSection />
          <BadgeSection />
          <BackupsSection />
          <ExportsSection />
          <OnboardingSection />
        </div>
      ) : null}
    </div>
  );
}
