import { useCallback, useState } from 'react';

/**
 * The error of the last action a person tried on a screen (a save, a delete, a download): cleared when the next
 * one starts, kept when it fails, and shown with ErrorLine (which shows nothing for a cancellation). One way for
 * every screen, so no action's failure goes unsaid.
 */
export function useActionError() {
  const [error, setError] = useState<unknown>(null);
  /** Runs `action`: true once it succeeded; false once it failed, its error kept. */
  const attempt = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { error, attempt, clear };
}
