// Moving through the product with the keyboard only (issue 18): Tab (or Shift+Tab) until a control
// whose name matches is focused, noting every stop on the way whose focus cannot be seen.
import type { Page } from 'playwright-core';
import { focusIndicator } from './everyday-flows.ts';

export interface KeyboardWalk {
  /** Focus stops where no outline or ring showed, described. */
  unseen: string[];
  /** Tab stops taken in all. */
  stops: number;
}

export function newWalk(): KeyboardWalk {
  return { unseen: [], stops: 0 };
}

/** The focused element's name as a person would hear it: label, aria-label, text, placeholder. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const labelled = el.getAttribute('aria-labelledby');
    if (labelled)
      return labelled
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
    const aria = el.getAttribute('aria-label');
    if (aria) return aria.trim();
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length)
      return [...labels]
        .map((l) => l.textContent ?? '')
        .join(' ')
        .trim();
    const placeholder = el.getAttribute('placeholder');
    if (placeholder) return placeholder;
    // its text without what is hidden from assistive technology (icons, carets)
    const copy = el.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return (copy.textContent ?? '').trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused control's name matches; fails after `max` stops. */
export async function tabTo(
  page: Page,
  walk: KeyboardWalk,
  name: RegExp,
  { back = false, max = 80 }: { back?: boolean; max?: number } = {},
): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    walk.stops++;
    const seen = await focusIndicator(page);
    if (!seen.visible && seen.what !== 'nothing focused') walk.unseen.push(`${page.url()}: ${seen.what}`);
    if (name.test(await focusedName(page))) return;
  }
  throw new Error(`no control named ${name} within ${max} Tab presses on ${page.url()}`);
}
