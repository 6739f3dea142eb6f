import { useCallback, useEffect, useRef, useState } from 'react';
import { abortError, isAbortError } from '../../lib/app-error';
import { runDownload, type DownloadRequest, type DownloadStatus } from './run-download';

export type DownloadState =
  | { kind: 'idle' }
  | ({ kind: 'running' | 'done'; mode: DownloadRequest['mode'] } & DownloadStatus)
  | { kind: 'error'; error: unknown };

/** One download at a time, with its progress, Cancel, and the error that stopped it. */
export function useDownload() {
  const [state, setState] = useState<DownloadState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback((req: DownloadRequest) => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    runDownload(req, controller.signal, (s) => {
      if (!controller.signal.aborted) setState({ kind: s.phase === 'done' ? 'done' : 'running', mode: req.mode, ...s });
    })
      .then((started) => {
        if (!started) setState({ kind: 'idle' });
      })
      .catch((error: unknown) => {
        const cancelled = isAbortError(error) || controller.signal.aborted;
        // Stops what is still under way (the next file's fetch, a pull already asked for), and its late progress.
        controller.abort(error);
        setState(cancelled ? { kind: 'idle' } : { kind: 'error', error });
      })
      .finally(() => {
        if (abort.current === controller) abort.current = null;
      });
  }, []);

  const cancel = useCallback(() => {
    abort.current?.abort(abortError('The download was cancelled'));
    abort.current = null;
    setState({ kind: 'idle' });
  }, []);
  const dismiss = useCallback(() => setState({ kind: 'idle' }), []);
  return { state, start, cancel, dismiss, busy: state.kind === 'running' };
}
