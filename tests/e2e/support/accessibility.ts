// axe-core (through @axe-core/playwright) on the page as it is now: the WCAG 2.1 A/AA rules, and the
// violations a person would be blocked by (impact serious or critical), listed readably.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface BlockingViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export async function blockingViolations(page: Page, include?: string): Promise<BlockingViolation[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const { violations, passes } = await builder.analyze();
  // No rule passing means axe looked at nothing (a wrong selector, an empty page): not a clean bill.
  if (passes.length === 0) throw new Error(`axe checked nothing${include ? ` in ${include}` : ''}`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}
