import type { ReactNode } from 'react';

/** The small centred card of a link's pages before the album shows (opening, password, a link that no longer works). */
export function ShareCard({ children, busy }: { children: ReactNode; busy?: boolean }) {
  return (
    <main className="page page--center invite-page share-page">
      <p className="invite-page__brand">
        <img src="/icon.svg" alt="" width={24} height={24} /> Shoebox
      </p>
      <div className="card invite-card" aria-busy={busy || undefined}>
        {children}
      </div>
    </main>
  );
}
