import { useCallback, useEffect, useMemo, useState } from 'react';
import { useBackend } from '../../backend/backend-context';
import type { AlbumBackend } from '../../backend/ports';
import { createShareBackend } from '../../backend/share/share-backend';
import type { ShareOpenAnswer } from '../../backend/share/share-types';
import { ShareVisitor } from '../../backend/share/share-visitor';
import { isAbortError, isAppError, type AppError } from '../../lib/app-error';

/**
 * Where a link's page is: opening it; asking for the password (with the last refusal: wrong, or too many
 * tries and until when); the album; the link no longer works (expired, used up, revoked, not found); or the
 * server could not be reached.
 */
export type ShareLinkState =
  | { status: 'opening' }
  | { status: 'password'; refusal: AppError | null; retryAt: number | null }
  | { status: 'open'; answer: ShareOpenAnswer; backend: AlbumBackend }
  | { status: 'gone'; error: AppError }
  | { status: 'failed'; error: unknown };

const GONE = new Set(['share/expired', 'share/revoked', 'share/not-found']);

export function useShareLink(token: string) {
  const { functions } = useBackend();
  const visitor = useMemo(() => new ShareVisitor(functions, token), [functions, token]);
  const backend = useMemo(() => createShareBackend(visitor, functions), [visitor, functions]);
  const [state, setState] = useState<ShareLinkState>({ status: 'opening' });
  const [submitting, setSubmitting] = useState(false);

  const settle = useCallback(
    (e: unknown, password: boolean) => {
      if (isAbortError(e)) return;
      if (isAppError(e) && GONE.has(e.code)) setState({ status: 'gone', error: e });
      else if (isAppError(e) && e.code === 'share/password-required') setState({ status: 'password', refusal: null, retryAt: null });
      else if (isAppError(e) && (e.code === 'share/wrong-password' || e.code === 'share/rate-limited'))
        setState({ status: 'password', refusal: e, retryAt: e.retryAfterMs === undefined ? null : Date.now() + e.retryAfterMs });
      else if (password) setState({ status: 'password', refusal: isAppError(e) ? e : null, retryAt: null });
      else setState({ status: 'failed', error: e });
    },
    [],
  );

  const open = useCallback(
    async (password?: string, signal?: AbortSignal) => {
      try {
        const answer = await visitor.open(password, signal ? { signal } : {});
        setState({ status: 'open', answer, backend });
      } catch (e) {
        settle(e, password !== undefined);
      }
    },
    [visitor, backend, settle],
  );

  useEffect(() => {
    const kept = visitor.resume();
    if (kept) {
      setState({ status: 'open', answer: kept, backend });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'opening' });
    void open(undefined, controller.signal);
    return () => controller.abort();
  }, [visitor, backend, open]);

  // A later call that finds the link gone stops the page (see [Note: A link that stops working while open]);
  // a visit that lapsed opens again, through the password when the link has one.
  useEffect(() => visitor.onStop((e) => (GONE.has(e.code) ? setState({ status: 'gone', error: e }) : void open())), [visitor, open]);

  const submitPassword = useCallback(
    async (password: string) => {
      setSubmitting(true);
      try {
        await open(password);
      } finally {
        setSubmitting(false);
      }
    },
    [open],
  );
  const retry = useCallback(() => {
    setState({ status: 'opening' });
    void open();
  }, [open]);

  return { state, submitPassword, submitting, retry };
}
