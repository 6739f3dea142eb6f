-- Sidecars beside originals ([Note: Sidecars beside originals] in src/backend/sidecar-writer.ts): who writes them.
-- An item can have an XMP sidecar beside its original in the bucket, `albums/{album_id}/{item_id}/original.xmp`,
-- so desktop tools, and anyone who leaves with their bucket, read the titles, ratings, labels, keywords and dates
-- given in the app. The browser writes it at two moments:
--   * while the item is uploading, by its uploader, like the item's other four objects;
--   * after an edit of a ready item's details, by whoever may edit them: exactly those `edit_items` lets (the owner
--     and editors any item, a contributor the items they uploaded; not in the trash, in an album not deleted).
-- Only the sidecar is writable once an item is ready. Its original, preview, thumbnail and poster stay as they
-- were stored: the original's size was checked when the upload was finished, and the rows point at objects that
-- nobody may replace behind them. The sidecar is stored as `application/octet-stream` (at most 2 MiB, one PUT,
-- storage-sign checks both) and always served as an attachment, never as XML a browser would render.
-- Every place that queues an item's objects for deletion now queues its sidecar with them.

-- `write` gains the second rule; `read` and `delete` are as 20261128100000_object_delete_unfinished.sql left them.
create or replace function private.object_allowed(p_name text, p_action text) returns boolean
language sql stable security invoker set search_path = '' as $$
  select coalesce(
    (storage.foldername(p_name))[1] = 'albums'
    and case p_action
      when 'read' then
        private.uuid_or_null((storage.foldername(p_name))[2]) in (select private.my_album_ids())
      when 'write' then
        pg_catalog.array_length(storage.foldername(p_name), 1) = 3
        and (
          -- The uploader, while uploading: every object of the item.
          (storage.filename(p_name) in ('original', 'preview.webp', 'thumb.webp', 'poster.webp', 'original.xmp')
           and exists (select 1 from public.items i
                       where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                         and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                         and i.uploader_id = (select auth.uid())
                         and i.status = 'uploading'
                         and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor']))))
          -- Whoever may edit a ready item's details: its sidecar only.
          or (storage.filename(p_name) = 'original.xmp'
              and exists (select 1 from public.items i
                          where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                            and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                            and i.status = 'ready'
                            and i.deleted_at is null
                            and (i.album_id in (select private.my_album_ids(array['owner', 'editor']))
                                 or (i.uploader_id = (select auth.uid())
                                     and i.album_id in (select private.my_album_ids(array['contributor'])))))))
      when 'delete' then
        pg_catalog.array_length(storage.foldername(p_name), 1) = 3
        and exists (select 1 from public.items i
                    where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                      and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                      and i.uploader_id = (select auth.uid())
                      and i.status in ('uploading', 'failed')
                      and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))
      else false
    end,
    false)
$$;

-- The purge queues every key an expired item's objects may have: the four, and the sidecar
-- ([Note: Purging rows and objects]). Otherwise as 20261123120300_pending_uploads.sql left it.
create or replace function private.purge_expired(p_now timestamptz, p_limit integer default 250) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_items integer;
begin
  if p_now is null or p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'purge_expired needs a time and a batch size of 1 to 10,000.';
  end if;
  with doomed as (
    select i.id, i.album_id
    from public.items i
    where i.deleted_at < p_now - interval '30 days'
       or (i.status <> 'ready' and i.created_at < p_now - interval '24 hours')
       or i.album_id in (select a.id from public.albums a where a.deleted_at < p_now - interval '1 hour')
    limit p_limit
    for update of i skip locked
  ), queued as (
    insert into private.purge_queue (key)
    select 'albums/' || d.album_id || '/' || d.id || '/' || f.name
    from doomed d
    cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp'), ('original.xmp')) as f(name)
    on conflict on constraint purge_queue_pkey do nothing
  )
  delete from public.items i using doomed d where i.id = d.id;
  get diagnostics v_items = row_count;

  -- An album's members, invites, links and activity go with it (foreign keys cascade).
  delete from public.albums a
  where a.deleted_at < p_now - interval '1 hour'
    and not exists (select 1 from public.items i where i.album_id = a.id);
  return v_items;
end $$;

-- Deletes the given pending rows of one album and queues every key their objects may have, the sidecar included
-- (an uploader writes it while uploading). Otherwise as 20261123120300_pending_uploads.sql left it.
create or replace function private.drop_pending_items(p_album_id uuid, p_item_ids uuid[]) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_n integer;
begin
  with doomed as (
    select i.id from public.items i
    where i.album_id = p_album_id and i.id = any (p_item_ids) and i.status <> 'ready'
    for update
  ), queued as (
    insert into private.purge_queue (key)
    select 'albums/' || p_album_id || '/' || d.id || '/' || f.name
    from doomed d
    cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp'), ('original.xmp')) as f(name)
    on conflict on constraint purge_queue_pkey do nothing
  )
  delete from public.items i using doomed d where i.id = d.id;
  get diagnostics v_n = row_count;
  return v_n;
end $$;

-- Deletes those of the items that are the guest's own: rows now, with every key of theirs queued for the purge
-- in the same transaction; returns the keys, which the function deletes from the bucket at once. A guest never
-- writes a sidecar, but an editor may have written one for a guest's item once it was ready, so it goes too.
-- Otherwise as 20261125200000_guest_uploads.sql left it.
create or replace function private.guest_delete(p_link_id uuid, p_token text, p_item_ids uuid[]) returns setof text
language plpgsql security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  if p_item_ids is null or pg_catalog.cardinality(p_item_ids) > 1000 then
    perform private.fail('validation/invalid', 'Choose 0 to 1,000 items.');
  end if;
  return query
  with doomed as (
    select i.id, i.album_id from public.items i join public.share_guest_items gi on gi.item_id = i.id
    where gi.guest_id = v_guest.id and i.id = any (p_item_ids)
    for update of i
  ), keys as (
    select 'albums/' || d.album_id || '/' || d.id || '/' || f.name as key
    from doomed d cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp'), ('original.xmp')) as f(name)
  ), queued as (
    insert into private.purge_queue (key) select k.key from keys k
    on conflict on constraint purge_queue_pkey do nothing
  ), gone as (
    delete from public.items i using doomed d where i.id = d.id
  )
  select k.key from keys k;
end $$;
