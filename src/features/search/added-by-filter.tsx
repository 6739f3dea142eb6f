import { useQueries, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useBackend } from '../../backend/backend-context';
import type { Member } from '../../domain/entities';
import { albumKeys } from '../../shared/album-keys';
import { memberKeys } from '../../shared/member-keys';

/**
 * "Added by" across every album: anyone, oneself, or one of the people of one's albums. Their names come from each
 * album's members, asked for only once the person opens the list (or the address names someone), not with every
 * search. Offered where albums have other members; on this device everything is one's own.
 */
export function AddedByFilter({ value, me, onChange }: { value: string | null; me: string; onChange: (userId: string | null) => void }) {
  const id = useId();
  const [asked, setAsked] = useState(value !== null && value !== me);
  const { people, pending } = usePeopleOfMyAlbums(asked || (value !== null && value !== me), me);
  const named = value === null || value === me || people.some((p) => p.userId === value);
  return (
    <span className="search-added-by">
      <label htmlFor={id} className="muted">
        Added by
      </label>
      <select
        id={id}
        className="select"
        value={value ?? ''}
        onFocus={() => setAsked(true)}
        onPointerDown={() => setAsked(true)}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">Anyone</option>
        <option value={me}>Me</option>
        {people.map((p) => (
          <option key={p.userId} value={p.userId}>
            {p.displayName || 'Someone'}
          </option>
        ))}
        {!named && <option value={value!}>{pending ? 'Loading…' : 'Someone no longer in your albums'}</option>}
        {asked && pending && named && <option disabled>Loading people…</option>}
      </select>
    </span>
  );
}

/** Everyone in the person's albums but the person, each once, by name. */
function usePeopleOfMyAlbums(enabled: boolean, me: string): { people: Member[]; pending: boolean } {
  const { albums, members } = useBackend();
  const list = useQuery({ queryKey: albumKeys.list(), queryFn: ({ signal }) => albums.listAlbums({ signal }), enabled });
  const lists = useQueries({
    queries: (enabled ? (list.data ?? []) : []).map((a) => ({
      queryKey: memberKeys.list(a.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => members.listMembers(a.id, { signal }),
    })),
  });
  const byId = new Map<string, Member>();
  for (const q of lists) for (const m of q.data ?? []) if (m.userId !== me && !byId.has(m.userId)) byId.set(m.userId, m);
  const people = [...byId.values()].sort((a, b) => (a.displayName || '').localeCompare(b.displayName || ''));
  return { people, pending: enabled && (list.isPending || lists.some((q) => q.isPending)) };
}
