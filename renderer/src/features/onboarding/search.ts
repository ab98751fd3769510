/** The onboarding flow's URL parameters: /onboarding?template=<key> opens that template's preview. */
export interface OnboardingSearch {
  template?: string;
}

/** Unknown or malformed values are dropped, never an error: an old link still opens the browser. */
export function validateOnboardingSearch(raw: Record<string, unknown>): OnboardingSearch {
  const t = raw.template;
  return { template: typeof t === 'string' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(t) && t.length <= 100 ? t : undefined };
}
