// Accessibility checks with axe: no serious or critical violations (WCAG 2 A/AA rules).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * `include` limits the check to one part of the page (a CSS selector): the part a test is about, when
 * the whole page is the a11y tour's (axe's time grows with the page: seconds for a table of rows).
 * `exclude` leaves a part out: a sandboxed frame, where axe's script cannot run (it would wait for
 * it for ever); check such a document on a page of its own.
 */
export async function expectNoSeriousViolations(page: Page, label: string, include?: string, exclude?: string): Promise<void> {
  // At rest: no answer being replaced (aria-busy, shown dimmed while the next one loads) and no finite
  // transition running (the dimming's own fade), so axe judges the colours people read, not a fade.
  await page
    .waitForFunction(
      () =>
        !document.querySelector('[aria-busy="true"]') &&
        document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  if (include) builder = builder.include(include);
  if (exclude) builder = builder.exclude(exclude);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join("\n  ")}`,
  );
  expect(summary, `${label}: axe violations`).toEqual([]);
}

/** The page does not scroll sideways (wide content scrolls inside its own region). */
export async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${label}: horizontal overflow in px`).toBeLessThanOrEqual(0);
}
