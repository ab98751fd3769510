import { Link } from '@tanstack/react-router';
import type { Schema } from '../../api/client';
import { Section } from '../../components/Section';

/** Home's entry into the onboarding flow: shown while the desk is empty (no sources, no memory). */
export function StartFromTemplateCard({ summary }: { summary: Schema<'WorkspaceSummary'> }) {
  if (summary.sources.total > 0 || summary.memory.total > 0) return null;
  return (
    <section className="card card--padded onboarding-start" aria-labelledby="onboarding-start-title">
      <h2 className="card__title" id="onboarding-start-title">
        Start from a template
      </h2>
      <p>
        A new desk knows nothing about your business. Pick a template for your industry and it starts with the rules, thresholds and habits that matter there, plus sample
        signals to work on.
      </p>
      <Link className="button" to="/onboarding">
        Browse templates
      </Link>
    </section>
  );
}

/** Settings' way into the same flow, whatever the desk holds already (entries already present are skipped). */
export function OnboardingSection() {
  return (
    <Section id="onboarding" title="Start from a template" description="Add an industry template's memories and sample signals to this desk. Entries already here are skipped.">
      <Link className="button button--secondary" to="/onboarding">
        Browse templates
      </Link>
    </Section>
  );
}
