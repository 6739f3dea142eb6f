import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { BackendContext } from '../../backend/backend-context';
import { sharedAlbum } from '../../backend/link-types';
import { UrlBatcher } from '../../shared/files/url-batcher';
import { UrlBatcherContext } from '../../shared/files/use-url';
import { SharePasswordForm } from '../../features/link-page/share-password-form';
import { ShareCard } from '../../features/link-page/share-card';
import { SharedAlbum } from '../../features/link-page/shared-album';
import { ShareUnavailable } from '../../features/link-page/share-unavailable';
import { useShareLink } from '../../features/link-page/use-share-link';
import { ErrorPanel } from '../../ui/error-panel';
import { createQueryClient } from '../query-client';

/**
 * `/s/:token`: a public link's page, outside the signed-in layout. The album's grid and viewer run on a
 * backend of the link's own (src/backend/link) and a query cache of their own, so nothing a member has
 * loaded in this browser mixes with what the link shows, and nothing the link shows outlives the page.
 */
export function ShareRoute() {
  const { token = '' } = useParams();
  // A new link (another token in the same tab) starts from nothing.
  return <SharePage key={token} token={token} />;
}

function SharePage({ token }: { token: string }) {
  const { state, submitPassword, submitting, retry } = useShareLink(token);
  const [queryClient] = useState(createQueryClient);
  const backend = state.status === 'open' ? state.backend : null;
  const batcher = useMemo(() => (backend ? new UrlBatcher(backend.files) : null), [backend]);

  switch (state.status) {
    case 'opening':
      return (
        <ShareCard busy>
          <div className="skeleton invite-card__cover" />
          <div className="skeleton" style={{ height: 24, marginTop: 16 }} />
          <span className="visually-hidden">Opening the album…</span>
        </ShareCard>
      );
    case 'password':
      return <SharePasswordForm refusal={state.refusal} retryAt={state.retryAt} submitting={submitting} onSubmit={(p) => void submitPassword(p)} />;
    case 'gone':
      return <ShareUnavailable error={state.error} />;
    case 'failed':
      return (
        <ShareCard>
          <ErrorPanel error={state.error} onRetry={retry} />
        </ShareCard>
      );
    case 'open':
      return (
        <BackendContext.Provider value={{ backend: state.backend, session: null }}>
          <QueryClientProvider client={queryClient}>
            <UrlBatcherContext.Provider value={batcher}>
              <main id="main" className="app-main share-main">
                <SharedAlbum album={sharedAlbum(state.answer)} link={state.answer.link} coverUrl={state.answer.album.coverUrl} basePath={`/s/${encodeURIComponent(token)}`} token={token} visit={state.answer.visit} />
              </main>
            </UrlBatcherContext.Provider>
          </QueryClientProvider>
        </BackendContext.Provider>
      );
  }
}
