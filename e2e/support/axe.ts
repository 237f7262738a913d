/**
 * The accessibility check of the browser tests: axe-core on the page as it is now, WCAG 2.1 A and AA,
 * reporting only serious and critical violations (rule, impact and the elements it found).
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { settle } from './screens.ts';

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function seriousViolations(page: Page): Promise<string[]> {
  await settle(page);
  const result = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
