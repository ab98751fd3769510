import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.2 AA as axe-core checks it. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Fails with axe-core's own words when the part of the page under `selector` breaks a WCAG 2.2 AA
 * rule axe can check (contrast, names, roles, labels ...).
 */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(WCAG_AA).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, `axe-core on ${selector}`).toEqual([]);
}
