import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Which part of the page axe checks, and which violations count. */
export interface A11yScope {
  /** Only these parts of the page (CSS selectors); the whole page when empty. */
  include?: string[];
  /** Parts left out, e.g. `.monaco-editor`, whose own markup is not ours. */
  exclude?: string[];
  /** `serious`: only serious and critical violations count (the default); `any`: every one. */
  impact?: "serious" | "any";
}

/** The axe violations in `scope`, one line each (rule id, then the elements), once animations settled. */
export async function a11yViolations(page: Page, scope: A11yScope = {}): Promise<string[]> {
  // A dialog fading in has low contrast for 0.2 s: measure what people see once it settles.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  let builder = new AxeBuilder({ page });
  for (const selector of scope.include ?? []) builder = builder.include(selector);
  for (const selector of scope.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => scope.impact === "any" || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Fails the test, listing them, when axe finds violations in `scope` (serious and critical by default). */
export async function expectNoA11yViolations(page: Page, scope: A11yScope = {}): Promise<void> {
  expect(await a11yViolations(page, scope), "accessibility violations (axe)").toEqual([]);
}
