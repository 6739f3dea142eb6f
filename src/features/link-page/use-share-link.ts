import { useCallback, useEffect, useState } from 'react';
import { useBackend } from '../../backend/backend-context';
import { createLinkVisitorBackend } from '../../backend/create-backend';
import type { LinkVisitorBackend, ShareOpenAnswer } from '../../backend/link-types';
import { isAbortError, isAppError, type AppError } from '../../lib/app-error';

/**
 * Where a link's page is: opening it; asking for the password (with the last refusal: wrong, or too many
 * tries and until when); the album; the link no longer works (expired, used up, revoked, not found); or the
 * server could not be reached.
 */
export type ShareLinkState =
  | { status: 'opening' }
  | { status: 'password'; refusal: AppError | null; retryAt: number | null }
  | { status: 'open'; answer: ShareOpenAnswer; backend: LinkVisitorBackend }
  | { status: 'gone'; error: AppError }
  | { status: 'failed'; error: unknown };

const GONE = new Set(['share/expired', 'share/revoked', 'share/not-found']);

export function useShareLink(token: string) {
  const { functions } = useBackend();
  const [backend, setBackend] = useState<LinkVisitorBackend | null>(null);
  const [state, setState] = useState<ShareLinkState>({ status: 'opening' });
  const [submitting, setSubmitting] = useState(false);
  // The visitor's backend loads with the page; a failed load (offline, a new deploy) is tried again by Retry.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setBackend(null);
    createLinkVisitorBackend(functions, token).then(
      (made) => live && setBackend(made),
      (error: unknown) => live && setState({ status: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [functions, token, attempt]);

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
      if (!backend) return;
      try {
        const answer = await backend.visit.open(password, signal ? { signal } : {});
        setState({ status: 'open', answer, backend });
      } catch (e) {
        settle(e, password !== undefined);
      }
    },
    [backend, settle],
  );

  useEffect(() => {
    if (!backend) return;
    const kept = backend.visit.resume();
    if (kept) {
      setState({ status: 'open', answer: kept, backend });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'opening' });
    void open(undefined, controller.signal);
    return () => controller.abort();
  }, [backend, open]);

  // A later call that finds the link gone stops the page (see [Note: A link that stops working while open]);
  // a visit that lapsed opens again, through the password when the link has one.
  useEffect(() => backend?.visit.onStop((e) => (GONE.has(e.code) ? setState({ status: 'gone', error: e }) : void open())), [backend, open]);

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
    if (backend) void open();
    else setAttempt((n) => n + 1);
  }, [backend, open]);

  return { state, submitPassword, submitting, retry };
}
