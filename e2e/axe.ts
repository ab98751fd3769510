import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.2 AA as axe-core checks it. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Rules outside those tags that check what WCAG asks and axe files elsewhere: the visible text of a
 * control inside its accessible name (2.5.3, "experimental" in axe), heading levels that do not skip
 * and one h1 per page (1.3.1, "best practice"), all content in landmarks and a skip link that leads
 * somewhere (2.4.1).
 */
const MORE_RULES = ['label-content-name-mismatch', 'heading-order', 'page-has-heading-one', 'landmark-one-main', 'region', 'skip-link'];

/** axe-core's violations of WCAG 2.2 AA, one line each: rule, impact, help, where. */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default opens a second page to merge the results
  // of frames (the desk has none), which doubled the time of a run and hung on large pages.
  const builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({
      runOnly: { type: 'tag', values: WCAG_AA },
      rules: Object.fromEntries(MORE_RULES.map((id) => [id, { enabled: true }])),
      // Only the violations are read: collecting every passing node is most of a run's time.
      resultTypes: ['violations'],
    });
  const result = await (selector === undefined ? builder : builder.include(selector)).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Fails with axe-core's own words when the page (or the part of it under `selector`) breaks a WCAG
 * 2.2 AA rule axe can check (contrast, names, roles, labels, headings ...).
 */
export async function expectAccessible(page: Page, selector?: string): Promise<void> {
  expect(await axeViolations(page, selector), `axe-core on ${selector ?? page.url()}`).toEqual([]);
}
