import { useNavigate, useSearch } from '@tanstack/react-router';
import { PageHeader } from '../../components/Page';
import type { ApplyTemplateResult } from './api';
import { useAppliedTemplate } from './applied-store';
import { TemplateBrowser } from './TemplateBrowser';
import { TemplatePreview } from './TemplatePreview';
import './onboarding.css';

/**
 * Start from a template: browse the catalog by category or search it, preview a template's memories
 * and sample signals, untick what does not fit, apply. The flow then lands on Memory (or Signals when
 * no memory was added), where the notice names what was added.
 */
export function OnboardingPage() {
  const { template } = useSearch({ strict: false }) as { template?: string };
  const navigate = useNavigate();
  const open = (key: string | undefined) => void navigate({ to: '/onboarding', search: key === undefined ? {} : { template: key } });
  const applied = (result: ApplyTemplateResult) => {
    useAppliedTemplate.getState().record(result);
    void navigate({ to: result.added.memories.length > 0 || result.added.signals.length === 0 ? '/memory' : '/signals' });
  };
  return (
    <div className="page onboarding">
      <PageHeader
        title="Start from a template"
        description="Pick the template closest to your business. It gives the desk the rules, thresholds and habits it should know from day one, and sample signals to work on."
      />
      {template ? <TemplatePreview templateKey={template} onBack={() => open(undefined)} onApplied={applied} /> : <TemplateBrowser onOpen={open} />}
    </div>
  );
}
