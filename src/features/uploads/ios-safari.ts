import { installPlatform } from '../../lib/platform';
import { readPlatformInput, type PlatformInput } from '../../lib/platform-input';

/**
 * iOS and iPadOS Safari (not added to the Home Screen) erase what a site stored after seven days without a
 * visit, the upload queue's files included. Which browser this is comes from the same reading as the install
 * help (src/lib/platform.ts): iPadOS in desktop mode included, other iOS browsers and in-app views not.
 */
export function isIosSafariInBrowser(input: PlatformInput = readPlatformInput(window)): boolean {
  return installPlatform(input).kind === 'ios-safari';
}
