import { DEFAULT_LIMITS, overrideLimits } from '../config';

/** Puts every limit back to its default after a test changed some. */
export function resetLimits(): void {
  overrideLimits(DEFAULT_LIMITS);
}
