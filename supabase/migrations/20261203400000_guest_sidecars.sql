-- A guest's photo that came with an XMP sidecar keeps it beside the original, as a member's does ([Note: Sidecars
-- beside originals] in src/backend/sidecar-writer.ts): guest_keys now lets a guest write `original.xmp` of their
-- own item while it is uploading (share-upload signs it as storage-sign does a member's: one PUT of opaque bytes,
-- at its length, at most 2 MiB). Never read: once members have edited the photo, its sidecar holds their edits.
-- Otherwise 20261130100000_stored_compressed_originals.sql's, unchanged.
create or replace function private.guest_keys(p_link_id uuid, p_token text, p_keys text[], p_action text)
returns table (key text, allowed boolean, item_id uuid, mime text, filename text, bytes bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  return query
    select u.k, coalesce(i.id is not null and (
             (p_action = 'read' and u.k not like '%/original.xmp') or (p_action = 'write' and i.status = 'uploading')), false),
           i.id, i.mime, i.filename, coalesce(i.stored_bytes, i.bytes)
    from pg_catalog.unnest(p_keys) as u(k)
    left join public.items i
      on u.k in ('albums/' || i.album_id || '/' || i.id || '/original', 'albums/' || i.album_id || '/' || i.id || '/preview.webp',
                 'albums/' || i.album_id || '/' || i.id || '/thumb.webp', 'albums/' || i.album_id || '/' || i.id || '/poster.webp',
                 'albums/' || i.album_id || '/' || i.id || '/original.xmp')
     and i.id = private.uuid_or_null(pg_catalog.split_part(u.k, '/', 3))
     and exists (select 1 from public.share_guest_items gi where gi.item_id = i.id and gi.guest_id = v_guest.id);
end $$;
