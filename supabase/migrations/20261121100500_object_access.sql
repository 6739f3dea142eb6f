-- Object access for S3 providers other than Supabase Storage, and the purge of expired rows and objects.
--
-- public.object_access(keys, action) answers, per key, whether the caller may read, write or delete that
-- object: the storage-sign edge function asks it before it presigns anything. It states the rules of the
-- storage.objects policies (20261121100300_storage_policies.sql) over the key text, with the same helpers,
-- so both kinds of bucket obey one set of rules (tests/db/object-access.test.ts compares them key by key):
--   read:   any member of the album                                    (shoebox_objects_select)
--   write:  under an item the caller reserved that is still uploading,
--           while the caller is owner, editor or contributor            (shoebox_objects_insert)
--   delete: owner and editor any item's objects, a contributor their own (shoebox_objects_delete)
--
-- `security invoker`: it runs as the signed-in caller, so auth.uid() is the caller from their own JWT claims
-- and the lookups of public.items pass through the caller's Row Level Security exactly as the lookups inside
-- the storage policies do. Nothing here needs more rights than the caller has (private.my_album_ids is
-- itself security definer), and a caller can only ever learn about their own access.
create function public.object_access(p_keys text[], p_action text)
returns table (key text, allowed boolean)
language plpgsql stable security invoker set search_path = '' as $$
begin
  if p_action is null or p_action not in ('read', 'write', 'delete') then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'The action is read, write or delete.';
  end if;
  if p_keys is null or pg_catalog.cardinality(p_keys) > 1000 then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'Ask about 0 to 1,000 keys at once.';
  end if;
  -- A key splits like storage.foldername() and storage.filename() split it: the folders are every
  -- segment but the last.
  return query
  with k as (
    select u.k as key, u.ord,
           s.parts[1:pg_catalog.array_length(s.parts, 1) - 1] as folders,
           s.parts[pg_catalog.array_length(s.parts, 1)] as filename
    from pg_catalog.unnest(p_keys) with ordinality as u(k, ord)
    cross join lateral (select pg_catalog.string_to_array(u.k, '/') as parts) s
  ), f as (
    select k.key, k.ord, k.folders, k.filename,
           private.uuid_or_null(k.folders[2]) as album_id,
           private.uuid_or_null(k.folders[3]) as item_id
    from k
  )
  select f.key,
         coalesce(case p_action
           when 'read' then
             f.folders[1] = 'albums'
             and f.album_id in (select private.my_album_ids())
           when 'write' then
             f.folders[1] = 'albums'
             and pg_catalog.array_length(f.folders, 1) = 3
             and f.filename in ('original', 'preview.webp', 'thumb.webp', 'poster.webp')
             and exists (select 1 from public.items i
                         where i.id = f.item_id
                           and i.album_id = f.album_id
                           and i.uploader_id = (select auth.uid())
                           and i.status = 'uploading'
                           and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))
           when 'delete' then
             f.folders[1] = 'albums'
             and (f.album_id in (select private.my_album_ids(array['owner', 'editor']))
                  or exists (select 1 from public.items i
                             where i.id = f.item_id
                               and i.album_id = f.album_id
                               and i.uploader_id = (select auth.uid())
                               and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor']))))
         end, false)
  from f
  order by f.ord;
end $$;

revoke all on function public.object_access(text[], text) from public, anon, authenticated, service_role;
grant execute on function public.object_access(text[], text) to authenticated;

-- [Note: Purging rows and objects]
-- Items trashed more than 30 days ago, and every item of a deleted album, are removed for good by the
-- `purge` edge function, which runs on a schedule with the service role. Rows and objects live in two
-- systems that share no transaction, so the purge goes through a queue of object keys:
--   1. private.purge_expired() deletes a batch of expired item rows and, in the same transaction,
--      queues the keys of all their possible objects (original, preview, thumb, poster);
--   2. the function deletes queued keys from the bucket (DeleteObjects, 1,000 at a time) and only then
--      takes them off the queue with private.purge_forget_keys().
-- A crash after step 1 leaves keys in the queue, and the next run deletes them: objects are never left
-- behind. No row is ever deleted after its objects, so no row points to a deleted object (the trash
-- cannot show, or restore, an item whose bytes are gone). Deleting a key that is already gone succeeds
-- in S3, so a repeated step 2 is harmless.
-- Items of a deleted album wait one hour past the deletion: a URL presigned just before it (they live
-- at most one hour) could still write an object, which would otherwise outlive the purge.
create table private.purge_queue (
  key text primary key,
  queued_at timestamptz not null default now()
);
alter table private.purge_queue enable row level security;
revoke all on private.purge_queue from public, anon, authenticated, service_role;

-- Deletes up to `p_limit` expired item rows (queuing their keys), then the deleted albums left empty.
-- Returns the number of items deleted; 0 means nothing is left to purge at `p_now`.
create function private.purge_expired(p_now timestamptz, p_limit integer default 250) returns integer
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
       or i.album_id in (select a.id from public.albums a where a.deleted_at < p_now - interval '1 hour')
    limit p_limit
    for update of i skip locked
  ), queued as (
    insert into private.purge_queue (key)
    select 'albums/' || d.album_id || '/' || d.id || '/' || f.name
    from doomed d
    cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp')) as f(name)
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

-- Queued keys after `p_after` in key order: one pass over the queue per run, even when some keys fail.
create function private.purge_next_keys(p_after text, p_limit integer default 1000) returns setof text
language sql stable security definer set search_path = '' as $$
  select q.key from private.purge_queue q
  where q.key > coalesce(p_after, '')
  order by q.key
  limit least(greatest(coalesce(p_limit, 1000), 1), 1000)
$$;

-- Takes keys off the queue once the bucket has confirmed they are deleted.
create function private.purge_forget_keys(p_keys text[]) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_n integer;
begin
  delete from private.purge_queue q where q.key = any (p_keys);
  get diagnostics v_n = row_count;
  return v_n;
end $$;

revoke all on function private.purge_expired(timestamptz, integer), private.purge_next_keys(text, integer),
  private.purge_forget_keys(text[]) from public, anon, authenticated;
grant execute on function private.purge_expired(timestamptz, integer), private.purge_next_keys(text, integer),
  private.purge_forget_keys(text[]) to service_role;
