/** A signer whose code (and the AWS SDK behind it) loads on the first request that needs it, not at start-up. */
import type { S3Signer } from './s3-signer';

export function lazySigner(load: () => Promise<S3Signer>): S3Signer {
  let loaded: Promise<S3Signer> | undefined;
  const get = () => (loaded ??= load());
  return {
    sign: async (ops, signal) => (await get()).sign(ops, signal),
    // Registered before the retry's `sign` awaits the same promise, so the clock is set first.
    adjustClock: (serverTimeMs) => void get().then((s) => s.adjustClock?.(serverTimeMs)),
  };
}
