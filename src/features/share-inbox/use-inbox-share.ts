import { useCallback, useEffect, useState } from 'react';
import { UploadStore, type InboxShare } from '../../upload/upload-store';

export type InboxState = { status: 'loading' } | { status: 'found'; share: InboxShare } | { status: 'gone' } | { status: 'error'; error: unknown };

/** Runs `fn` on the upload queue's database, closing it after (the queue holds its own connection). */
async function withStore<T>(fn: (store: UploadStore) => Promise<T>): Promise<T> {
  const store = await UploadStore.open();
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** A share the service worker put in the inbox, and the way to let go of it once added or discarded. */
export function useInboxShare(id: string) {
  const [state, setState] = useState<InboxState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    withStore((s) => s.getShare(id)).then(
      (share) => live && setState(share ? { status: 'found', share } : { status: 'gone' }),
      (error: unknown) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const drop = useCallback(() => withStore((s) => s.deleteShare(id)), [id]);
  return { state, drop };
}
