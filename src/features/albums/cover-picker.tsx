import { useQuery } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { Item } from '../../domain/entities';
import { safeFilename } from '../../lib/format';
import { ErrorPanel } from '../../ui/error-panel';
import { useObjectUrls } from '../../shared/files/use-object-urls';
import { itemKeys } from '../../shared/item-keys';
import { thumbhashDataUrl } from '../../ui/thumbhash-image';

/** How many of the newest photos and videos are offered. */
const CHOICES = 48;

function useCoverChoices(albumId: string) {
  const { items } = useBackend();
  return useQuery({
    queryKey: itemKeys.coverChoices(albumId),
    queryFn: async ({ signal }) => {
      const page = await items.listItems(albumId, { sort: 'added', limit: CHOICES * 2 }, { signal });
      return page.rows.filter((i) => i.status === 'ready' && (i.kind === 'image' || i.kind === 'video') && i.thumbKey).slice(0, CHOICES);
    },
  });
}

/**
 * The cover: "Automatic" (the newest photo or video) or one of the album's newest ready photos and videos, as
 * a group of radio buttons over their thumbnails.
 */
export function CoverPicker({ albumId, value, onChange, name }: { albumId: string; value: string | null; onChange: (id: string | null) => void; name: string }) {
  const choices = useCoverChoices(albumId);
  const urls = useObjectUrls(choices.data?.map((i) => i.thumbKey) ?? []);
  return (
    <fieldset className="cover-picker">
      <legend>Cover</legend>
      {choices.isPending ? (
        <div className="skeleton" style={{ height: 72 }} aria-busy="true" aria-label="Loading photos" />
      ) : choices.isError ? (
        <ErrorPanel error={choices.error} onRetry={() => void choices.refetch()} />
      ) : (
        <div className="cover-picker__grid">
          <label className="cover-choice cover-choice--auto">
            <input type="radio" name={name} checked={value === null} onChange={() => onChange(null)} />
            <span>Automatic</span>
            <span className="muted">the newest photo</span>
          </label>
          {choices.data.map((item) => (
            <CoverChoice key={item.id} item={item} url={item.thumbKey ? urls.data?.get(item.thumbKey) : undefined} checked={value === item.id} name={name} onPick={() => onChange(item.id)} />
          ))}
        </div>
      )}
      {choices.data?.length === 0 && <p className="muted">Add photos or videos to choose one as the cover.</p>}
    </fieldset>
  );
}

function CoverChoice({ item, url, checked, name, onPick }: { item: Item; url: string | undefined; checked: boolean; name: string; onPick: () => void }) {
  const src = url ?? (item.thumbhash ? thumbhashDataUrl(item.thumbhash) : null);
  return (
    <label className="cover-choice" data-item-id={item.id}>
      <input type="radio" name={name} checked={checked} onChange={onPick} aria-label={safeFilename(item.filename)} />
      {src ? <img src={src} alt="" /> : <span className="cover-choice__blank" />}
    </label>
  );
}
