import { expect, test as base } from '@playwright/test';

/** A Content-Security-Policy violation as the page reported it. */
export interface CspViolation {
  directive: string;
  blocked: string;
  url: string;
}

/**
 * Playwright's `test`, with every page watched for Content-Security-Policy violations: the built app runs
 * under its policy, and a normal flow that trips it (a blocked thumbnail, a refused connection) fails the
 * test. A test that provokes violations on purpose takes them out of `cspViolations` once it has checked them.
 */
export const test = base.extend<{ cspViolations: CspViolation[] }>({
  cspViolations: [
    async ({ page }, use) => {
      const seen: CspViolation[] = [];
      await page.exposeBinding('__reportCspViolation', (_source, v: CspViolation) => void seen.push(v));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          const report = (window as unknown as { __reportCspViolation: (v: unknown) => void }).__reportCspViolation;
          report({ directive: e.effectiveDirective, blocked: e.blockedURI, url: e.documentURI });
        });
      });
      await use(seen);
      expect(seen, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
