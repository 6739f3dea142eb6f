import type { Item } from '../../domain/entities';
import { uploaderName } from '../../shared/uploader-credit';
import { useMembers } from '../../shared/use-members';
import { errorText } from '../../lib/error-messages';
import { DetailsEditor } from './details-editor';
import { formatBytes, formatDateTime, formatDuration, formatTaken, safeFilename } from '../../lib/format';

/**
 * Date, size, dimensions, camera and the photographer's own fields. Every value is text, never HTML. `editable`:
 * the person may edit this item's details (PRODUCT.md §6), which then show as fields.
 */
export function DetailsPanel({ item, editable = false }: { item: Item; editable?: boolean }) {
  const members = useMembers(item.albumId);
  // The date alone until the member list is known (or if it cannot be read): never a wrong name.
  const by = uploaderName(item, members.data);
  const m = item.metadata;
  const camera = [m.cameraMake, m.cameraModel].filter(Boolean).join(' ');
  const exposure = [
    m.fNumber ? `ƒ/${m.fNumber}` : null,
    m.exposureTime ? (m.exposureTime < 1 ? `1/${Math.round(1 / m.exposureTime)} s` : `${m.exposureTime} s`) : null,
    m.iso ? `ISO ${m.iso}` : null,
    m.focalLength ? `${m.focalLength} mm` : null,
  ].filter(Boolean).join(' · ');
  const rows: [string, string][] = [
    ['Name', safeFilename(item.filename)],
    ...(editable ? [] : [['Taken', formatTaken(item.takenAt, m.takenOffset)] as [string, string]]),
    by === undefined ? ['Added', formatDateTime(item.createdAt)] : ['Added by', `${by} · ${formatDateTime(item.createdAt)}`],
    ['Size', formatBytes(item.bytes)],
    ['Type', item.mime],
  ];
  if (item.width && item.height) rows.push(['Dimensions', `${item.width} × ${item.height}`]);
  if (item.durationMs) rows.push(['Duration', formatDuration(item.durationMs)]);
  if (camera) rows.push(['Camera', camera]);
  if (m.lens) rows.push(['Lens', m.lens]);
  if (exposure) rows.push(['Exposure', exposure]);
  if (!editable) {
    if (m.title) rows.push(['Title', m.title]);
    if (m.description) rows.push(['Description', m.description]);
    if (m.rating) rows.push(['Rating', '★'.repeat(Math.max(0, Math.min(5, m.rating)))]);
    if (m.keywords?.length) rows.push(['Keywords', m.keywords.join(', ')]);
    if (m.label) rows.push(['Label', m.label]);
  }
  // Lightroom's keyword hierarchy, broadest level first.
  if (m.keywordPaths?.length) rows.push(['Hierarchy', m.keywordPaths.map((p) => p.split('|').join(' › ')).join(', ')]);
  if (m.creator) rows.push(['Creator', m.creator]);
  if (m.rights) rows.push(['Rights', m.rights]);
  if (m.notice) rows.push(['Note', errorText(m.notice).title]);
  if (m.location === 'removed') rows.push(['Privacy', 'Location removed']);
  if (m.location === 'preview') rows.push(['Privacy', "Only a preview was uploaded: the original's location could not be removed"]);
  if (m.location === 'kept') rows.push(['Privacy', "This file's location could not be removed: it was kept as is"]);
  return (
    <aside className="viewer__details" aria-label="Details">
      <h2 style={{ fontSize: 16, marginTop: 0 }}>Details</h2>
      {/* Keyed by item: stepping to the next photo never carries typing over to it. */}
      {editable && <DetailsEditor key={item.id} item={item} />}
      <dl>
        {rows.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
