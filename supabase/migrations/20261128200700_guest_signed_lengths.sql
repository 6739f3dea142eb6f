-- [Note: A guest's upload is signed at the size it was reserved at]
-- A presigned PUT or part carries any number of bytes unless its length is part of the signature: a 10-byte
-- reservation took an 8 MiB PUT and a 15 MiB multipart upload. share-upload now signs Content-Length into
-- every write of a guest's original: a single PUT at the item's reserved size, each part at the length its
-- number gives under the upload's part size. The part size is the guest's choice (the app's setting), fixed
-- for the item by its first part and kept here, so that parts signed under different sizes can never add up
-- to more than the reservation. guest_keys also answers the reserved size.

alter table public.share_guest_items add column part_size bigint
  check (part_size is null or part_size between 5242880 and 5368709120);

drop function private.guest_keys(uuid, text, text[], text);
create function private.guest_keys(p_link_id uuid, p_token text, p_keys text[], p_action text)
returns table (key text, allowed boolean, item_id uuid, mime text, filename text, bytes bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  return query
    select u.k, coalesce(i.id is not null and (
             (p_action = 'read') or (p_action = 'write' and i.status = 'uploading')), false),
           i.id, i.mime, i.filename, i.bytes
    from pg_catalog.unnest(p_keys) as u(k)
    left join public.items i
      on u.k in ('albums/' || i.album_id || '/' || i.id || '/original', 'albums/' || i.album_id || '/' || i.id || '/preview.webp',
                 'albums/' || i.album_id || '/' || i.id || '/thumb.webp', 'albums/' || i.album_id || '/' || i.id || '/poster.webp')
     and i.id = private.uuid_or_null(pg_catalog.split_part(u.k, '/', 3))
     and exists (select 1 from public.share_guest_items gi where gi.item_id = i.id and gi.guest_id = v_guest.id);
end $$;

-- The part size of the guest's upload of this item: the one asked for if it is the first, else the one fixed
-- before. Null when the item is not an upload of this guest's in progress.
create function private.guest_part_size(p_link_id uuid, p_token text, p_item_id uuid, p_part_size bigint) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
  v_size bigint;
begin
  if p_part_size is null or p_part_size not between 5242880 and 5368709120 then
    perform private.fail('validation/invalid', 'A part has 5 MiB to 5 GiB.');
  end if;
  update public.share_guest_items gi set part_size = coalesce(gi.part_size, p_part_size)
  from public.items i
  where gi.item_id = p_item_id and gi.guest_id = v_guest.id and i.id = gi.item_id and i.status = 'uploading'
  returning gi.part_size into v_size;
  return v_size;
end $$;

revoke all on function private.guest_keys(uuid, text, text[], text), private.guest_part_size(uuid, text, uuid, bigint)
from public, anon, authenticated;
