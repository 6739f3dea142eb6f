/** The error an aborted operation rejects with, as `fetch` and `AbortSignal` make it. */
export function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}
