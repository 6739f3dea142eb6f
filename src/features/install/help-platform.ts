import type { InstallPlatform } from '../../lib/platform-input';

/** The platforms that get steps or an explanation (the browser's own prompt needs neither). */
export type HelpPlatform = Exclude<InstallPlatform, { kind: 'installed' } | { kind: 'chromium' }>;

export function hasInstallSteps(p: InstallPlatform): p is HelpPlatform {
  return p.kind !== 'installed' && p.kind !== 'chromium';
}
