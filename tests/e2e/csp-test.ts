import { expect, test as base } from '@playwright/test';

/** A Content-Security-Policy violation as the page reported it. */
export interface CspViolation {
  directive: string;
  blocked: string;
  url: string;
}

/** A violation as tests compare them: its directive and what was blocked. */
export const describeViolation = (v: CspViolation): string => `${v.directive} ${v.blocked}`;

const accepted = new WeakMap<CspViolation[], Set<string>>();

/**
 * Takes the violations a test provoked on purpose, and has checked, out of `seen`. A page carries several
 * policies and each reports what it refuses, not all at the same moment: the same violation reported later by
 * another policy is accepted too, while any other still fails the test.
 */
export function acceptViolations(seen: CspViolation[], descriptions: string[]): void {
  const set = accepted.get(seen) ?? new Set<string>();
  for (const d of descriptions) set.add(d);
  accepted.set(seen, set);
  const rest = seen.filter((v) => !set.has(describeViolation(v)));
  seen.splice(0, seen.length, ...rest);
}

/**
 * Playwright's `test`, with every page watched for Content-Security-Policy violations: the built app runs
 * under its policy, and a normal flow that trips it (a blocked thumbnail, a refused connection) fails the
 * test. A test that provokes violations on purpose takes them out of `cspViolations` once it has checked them
 * (acceptViolations).
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
      const set = accepted.get(seen);
      expect(set ? seen.filter((v) => !set.has(describeViolation(v))) : seen, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
