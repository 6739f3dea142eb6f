-- [Note: Pending uploads]
-- Rows left `uploading` or `failed` count toward the album's 1,000,000 items, yet only their uploader sees
-- them. One member reserving 100 batches of 10,000 blocked every upload of the album, even after being
-- removed, and nothing ever cleared them. Now (PRODUCT.md §9):
--   * a member holds at most 10,000 pending (uploading or failed) items per album: reserve_items refuses
--     more with `upload/quota-exceeded`;
--   * pending rows older than 24 hours go in the purge, with their objects (the multipart uploads behind
--     them are aborted at the same age); reserving a failed item again starts its 24 hours anew;
--   * removing a member (or leaving) clears that member's pending rows in the album;
--   * the owner sees how many pending rows other members hold (count_pending_items) and clears them
--     (clear_pending_items).
-- Rows go with their keys queued in private.purge_queue, in the same transaction, so the purge deletes the
-- objects that were uploaded for them ([Note: Purging rows and objects]).

create index items_pending_created_idx on public.items (created_at) where status <> 'ready';

-- Deletes the given pending rows of one album and queues every key their objects may have.
create function private.drop_pending_items(p_album_id uuid, p_item_ids uuid[]) returns integer
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
    cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp')) as f(name)
    on conflict on constraint purge_queue_pkey do nothing
  )
  delete from public.items i using doomed d where i.id = d.id;
  get diagnostics v_n = row_count;
  return v_n;
end $$;
revoke all on function private.drop_pending_items(uuid, uuid[]) from public, anon, authenticated;

create or replace function public.reserve_items(p_album_id uuid, p_items jsonb) returns setof public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_count int;
  v_new int;
  v_bad text;
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor']);
  if p_items is null or pg_catalog.jsonb_typeof(p_items) <> 'array' then
    perform private.fail('validation/invalid', 'Items must be a list.');
  end if;
  v_count := pg_catalog.jsonb_array_length(p_items);
  if v_count = 0 or v_count > 10000 then
    perform private.fail('validation/invalid', 'A batch holds 1 to 10,000 files.');
  end if;

  begin
  select case
      when bool_or(r.id is null or r.filename is null or r.mime is null or r.kind is null or r.bytes is null) then 'validation/invalid'
      when bool_or(r.bytes = 0) then 'upload/empty'
      when bool_or(r.bytes < 0) then 'validation/invalid'
      when bool_or(r.bytes > 21474836480) then 'upload/too-large'
      when bool_or(r.kind not in ('image', 'video', 'file')) then 'validation/invalid'
      when bool_or(pg_catalog.char_length(r.filename) not between 1 and 1024 or pg_catalog.char_length(r.mime) not between 1 and 255) then 'validation/invalid'
      when pg_catalog.count(distinct r.id) <> pg_catalog.count(*) then 'validation/invalid'
    end into v_bad
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint);
  exception when invalid_text_representation or numeric_value_out_of_range or invalid_parameter_value then
    v_bad := 'validation/invalid';
  end;
  if v_bad = 'upload/empty' then
    perform private.fail(v_bad, 'Empty files cannot be added.');
  elsif v_bad = 'upload/too-large' then
    perform private.fail(v_bad, 'A file can be at most 20 GiB.');
  elsif v_bad is not null then
    perform private.fail(v_bad, 'Each item needs an id, a file name, a type, a kind (image, video or file) and a size.');
  end if;

  if exists (select 1 from public.items i join pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint) on r.id = i.id
             where i.album_id <> p_album_id or i.uploader_id is distinct from v_uid) then
    perform private.fail('validation/invalid', 'An item with this id already exists.');
  end if;

  select pg_catalog.count(*) into v_new from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint)
  where not exists (select 1 from public.items i where i.id = r.id);
  -- Serialises concurrent reserves of one album so the item limit holds.
  perform 1 from public.albums a where a.id = p_album_id for update;
  if (select pg_catalog.count(*) from public.items i
      where i.uploader_id = v_uid and i.album_id = p_album_id and i.status <> 'ready') + v_new > 10000 then
    perform private.fail('upload/quota-exceeded', 'You have 10,000 unfinished uploads in this album: let them finish, or wait a day, before adding more.');
  end if;
  if (select a.item_count from public.albums a where a.id = p_album_id)
     + (select pg_catalog.count(*) from public.items i where i.album_id = p_album_id and i.status <> 'ready')
     + v_new > 1000000 then
    perform private.fail('upload/quota-exceeded', 'An album holds at most 1,000,000 items.');
  end if;

  insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key)
  select r.id, p_album_id, v_uid, r.kind, 'uploading', r.filename, r.mime, r.bytes,
         'albums/' || p_album_id || '/' || r.id || '/original'
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint)
  on conflict (id) do update set status = 'uploading', created_at = now()
    where public.items.status = 'failed';

  return query
    select i.* from public.items i join pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint) on r.id = i.id
    where i.album_id = p_album_id
    order by i.created_at, i.id;
end $$;

-- The owner removes anyone else; any other member may leave. What the member left unfinished goes with them.
create or replace function public.remove_member(p_album_id uuid, p_user_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_role text := private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
begin
  if p_user_id = v_uid then
    if v_role = 'owner' then
      perform private.fail('validation/invalid', 'The owner hands the album over before leaving it.');
    end if;
  elsif v_role <> 'owner' then
    perform private.fail('album/forbidden', 'Only the owner removes members.');
  end if;
  delete from public.album_members where album_id = p_album_id and user_id = p_user_id;
  if not found then
    perform private.fail('validation/invalid', 'This person is not a member of the album.');
  end if;
  perform private.drop_pending_items(p_album_id, array(
    select i.id from public.items i where i.uploader_id = p_user_id and i.album_id = p_album_id and i.status <> 'ready'));
end $$;

-- How many uploads other members (and former members) started in this album and never finished. Owner only.
create function public.count_pending_items(p_album_id uuid) returns integer
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner']);
  return (select pg_catalog.count(*)::int from public.items i
          where i.album_id = p_album_id and i.status <> 'ready' and i.uploader_id is distinct from (select auth.uid()));
end $$;

-- Clears those uploads (rows now, objects at the next purge); the owner's own stay, they are theirs to
-- finish. Returns how many were cleared.
create function public.clear_pending_items(p_album_id uuid) returns integer
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner']);
  return private.drop_pending_items(p_album_id, array(
    select i.id from public.items i
    where i.album_id = p_album_id and i.status <> 'ready' and i.uploader_id is distinct from (select auth.uid())));
end $$;

revoke all on function public.count_pending_items(uuid), public.clear_pending_items(uuid) from public, anon;
grant execute on function public.count_pending_items(uuid), public.clear_pending_items(uuid) to authenticated, service_role;

-- The purge now also takes pending rows older than 24 hours ([Note: Pending uploads]).
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
