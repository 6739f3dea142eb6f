/** Set once the browser was asked: the question is put to it at the first queued upload, never again. */
const ASKED_KEY = 'shoebox:persist-asked';

function alreadyAsked(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) !== null;
  } catch {
    return true;
  }
}

/**
 * Asks the browser not to evict this site's storage, where the upload queue keeps the files it has not sent
 * yet. Once per browser; a refusal changes nothing the user would notice, so it is not reported.
 */
export function askPersistentStorageOnce(): void {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.persist !== 'function' || alreadyAsked()) return;
  try {
    localStorage.setItem(ASKED_KEY, new Date().toISOString());
  } catch {
    return;
  }
  void navigator.storage
    .persisted()
    .then((already) => (already ? true : navigator.storage.persist()))
    .catch(() => false);
}
