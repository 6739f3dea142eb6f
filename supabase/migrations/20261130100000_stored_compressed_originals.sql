-- [Note: Originals stored compressed]
-- Text uploads (CSV, JSON, GPX, logs, markdown…) are stored gzip-compressed when that saves at least 10 %
-- ([Note: Text files are stored gzip-compressed] in src/media/text-compression.ts). The row keeps the original's
-- `bytes` and `sha256`: what the person uploaded and what every download gives back. How the object is stored is
-- recorded beside it, at reserve time, by reserve_items and guest_reserve only:
--   stored_encoding  'gzip', or null for an object that holds the original's own bytes;
--   stored_bytes     the stored object's size, smaller than `bytes`, or null.
-- No member can change them: a direct update reaches only the columns granted for it (none of these), and the
-- edit function changes only an item's details; so no edit can make the app inflate bytes that are not gzip, or
-- hand out gzip as the file. A finished upload is checked
-- against the size it is stored at ([Note: An upload is finished only once its original is stored]); a guest's
-- writes are signed at that size ([Note: A guest's upload is signed at the size it was reserved at]).
-- Storage counters, the album's bytes_total and a link's guest_max_bytes keep counting `bytes`: what the person
-- added and can download, the same on every backend and whatever the compression; the bucket just holds less.

alter table public.items
  add column stored_encoding text check (stored_encoding in ('gzip')),
  add column stored_bytes bigint,
  add constraint items_stored_form check (
    (stored_encoding is null and stored_bytes is null)
    or (stored_encoding is not null and stored_bytes > 0 and stored_bytes < bytes));

-- Whether `p_stored` (a reserve input's "stored", absent or null when stored as is) is a form the app stores in.
create function private.is_stored_form(p_stored jsonb, p_bytes bigint) returns boolean
language plpgsql immutable set search_path = '' as $$
declare
  v_bytes bigint;
begin
  if p_stored is null or p_stored = 'null'::jsonb then
    return true;
  end if;
  if pg_catalog.jsonb_typeof(p_stored) <> 'object' or p_stored ->> 'encoding' is distinct from 'gzip'
     or pg_catalog.jsonb_typeof(p_stored -> 'bytes') is distinct from 'number' then
    return false;
  end if;
  v_bytes := (p_stored ->> 'bytes')::bigint;
  return coalesce(v_bytes > 0 and v_bytes < p_bytes, false);
exception when others then
  return false;
end $$;
revoke all on function private.is_stored_form(jsonb, bigint) from public, anon, authenticated;

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
      when bool_or(not private.is_stored_form(r.stored, r.bytes)) then 'validation/invalid'
      when pg_catalog.count(distinct r.id) <> pg_catalog.count(*) then 'validation/invalid'
    end into v_bad
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint, stored jsonb);
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

  insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, stored_encoding, stored_bytes)
  select r.id, p_album_id, v_uid, r.kind, 'uploading', r.filename, r.mime, r.bytes,
         'albums/' || p_album_id || '/' || r.id || '/original', r.stored ->> 'encoding', (r.stored ->> 'bytes')::bigint
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint, stored jsonb)
  on conflict (id) do update set status = 'uploading', created_at = now(),
    stored_encoding = excluded.stored_encoding, stored_bytes = excluded.stored_bytes
    where public.items.status = 'failed';

  return query
    select i.* from public.items i join pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint) on r.id = i.id
    where i.album_id = p_album_id
    order by i.created_at, i.id;
end $$;

create or replace function private.guest_reserve(p_link_id uuid, p_token text, p_items jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
  v_link public.share_links := private.guest_link(p_link_id);
  v_album uuid := v_link.album_id;
  v_bad text;
  v_dups uuid[];
  v_new_files bigint;
  v_new_bytes bigint;
  v_used record;
begin
  if p_items is null or pg_catalog.jsonb_typeof(p_items) <> 'array'
     or pg_catalog.jsonb_array_length(p_items) not between 1 and 1000 then
    perform private.fail('validation/invalid', 'A batch holds 1 to 1,000 files.');
  end if;
  begin
    select case
        when bool_or(r.id is null or r.filename is null or r.mime is null or r.kind is null or r.bytes is null) then 'validation/invalid'
        when bool_or(r.bytes = 0) then 'upload/empty'
        when bool_or(r.bytes < 0) then 'validation/invalid'
        when bool_or(r.bytes > 21474836480) then 'upload/too-large'
        when bool_or(r.kind not in ('image', 'video', 'file')) then 'validation/invalid'
        when bool_or(pg_catalog.char_length(r.filename) not between 1 and 1024 or pg_catalog.char_length(r.mime) not between 1 and 255) then 'validation/invalid'
        when bool_or(r.sha256 is not null and r.sha256 !~ '^[0-9a-f]{64}$') then 'validation/invalid'
        when bool_or(not private.is_stored_form(r.stored, r.bytes)) then 'validation/invalid'
        when pg_catalog.count(distinct r.id) <> pg_catalog.count(*) then 'validation/invalid'
      end into v_bad
    from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint, sha256 text, stored jsonb);
  exception when invalid_text_representation or numeric_value_out_of_range or invalid_parameter_value then
    v_bad := 'validation/invalid';
  end;
  if v_bad = 'upload/empty' then
    perform private.fail(v_bad, 'Empty files cannot be added.');
  elsif v_bad = 'upload/too-large' then
    perform private.fail(v_bad, 'A file is at most 20 GiB.');
  elsif v_bad is not null then
    perform private.fail(v_bad, 'Each item needs an id, a filename, a type, a kind and a size.');
  end if;
  -- An id that is someone else's item is refused, never taken over.
  if exists (select 1 from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid) join public.items i on i.id = r.id
             where not exists (select 1 from public.share_guest_items gi where gi.item_id = i.id and gi.guest_id = v_guest.id)) then
    perform private.fail('validation/invalid', 'These ids are taken.');
  end if;

  -- One guest's reserves are decided one at a time (their limits), and one album's (its item limit).
  perform 1 from public.share_guests g where g.id = v_guest.id for update;
  perform 1 from public.albums a where a.id = v_album for update;

  select pg_catalog.array_agg(r.id) into v_dups
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, sha256 text)
  where r.sha256 is not null
    and not exists (select 1 from public.items own where own.id = r.id)
    and exists (select 1 from public.items i
                where i.album_id = v_album and i.sha256 = r.sha256 and i.status = 'ready' and i.deleted_at is null);
  v_dups := coalesce(v_dups, '{}');

  select pg_catalog.count(*), coalesce(pg_catalog.sum(r.bytes), 0) into v_new_files, v_new_bytes
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, bytes bigint)
  where r.id <> all (v_dups) and not exists (select 1 from public.items i where i.id = r.id);
  select * into v_used from private.guest_usage(v_guest.id);
  if v_link.guest_max_files is not null and v_used.used_files + v_new_files > v_link.guest_max_files then
    perform private.fail('upload/quota-exceeded', 'You have added as many files as this link allows.');
  end if;
  if v_link.guest_max_bytes is not null and v_used.used_bytes + v_new_bytes > v_link.guest_max_bytes then
    perform private.fail('upload/quota-exceeded', 'These files are more than this link lets you add.');
  end if;
  -- [Note: Guests cannot block an album]
  if (select pg_catalog.count(*) from public.share_guest_items gi join public.share_guests g on g.id = gi.guest_id
      join public.items i on i.id = gi.item_id
      where g.link_id = p_link_id and i.status <> 'ready') + v_new_files > 1000 then
    perform private.fail('upload/quota-exceeded', 'This link''s guests have 1,000 uploads unfinished: finish those first.');
  end if;
  if (select pg_catalog.count(*) from public.share_guest_items gi join public.items i on i.id = gi.item_id
      where gi.album_id = v_album and i.status <> 'ready') + v_new_files > 2000 then
    perform private.fail('upload/quota-exceeded', 'This album''s guests have 2,000 uploads unfinished: finish those first.');
  end if;
  if (select a.item_count from public.albums a where a.id = v_album)
     + (select pg_catalog.count(*) from public.items i where i.album_id = v_album and i.status <> 'ready')
     + v_new_files > 1000000 then
    perform private.fail('upload/quota-exceeded', 'An album holds at most 1,000,000 items.');
  end if;

  with added as (
    insert into public.items (id, album_id, uploader_id, guest_label, kind, status, filename, mime, bytes, original_key, stored_encoding, stored_bytes)
    select r.id, v_album, null, v_guest.name, r.kind, 'uploading', r.filename, r.mime, r.bytes,
           'albums/' || v_album || '/' || r.id || '/original', r.stored ->> 'encoding', (r.stored ->> 'bytes')::bigint
    from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint, stored jsonb)
    where r.id <> all (v_dups)
    on conflict (id) do update set status = 'uploading', created_at = now(),
      stored_encoding = excluded.stored_encoding, stored_bytes = excluded.stored_bytes
      where public.items.status = 'failed'
    returning id
  )
  insert into public.share_guest_items (item_id, guest_id, album_id)
  select a.id, v_guest.id, v_album from added a
  on conflict (item_id) do nothing;

  return pg_catalog.jsonb_build_object(
    'items', coalesce((select pg_catalog.jsonb_agg(pg_catalog.to_jsonb(i) order by i.created_at, i.id)
                       from public.items i join public.share_guest_items gi on gi.item_id = i.id and gi.guest_id = v_guest.id
                       join pg_catalog.jsonb_to_recordset(p_items) as r(id uuid) on r.id = i.id), '[]'::jsonb),
    'duplicates', pg_catalog.to_jsonb(v_dups));
end $$;

-- A guest's writes of an original are signed at the size it is stored at.
create or replace function private.guest_keys(p_link_id uuid, p_token text, p_keys text[], p_action text)
returns table (key text, allowed boolean, item_id uuid, mime text, filename text, bytes bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  return query
    select u.k, coalesce(i.id is not null and (
             (p_action = 'read') or (p_action = 'write' and i.status = 'uploading')), false),
           i.id, i.mime, i.filename, coalesce(i.stored_bytes, i.bytes)
    from pg_catalog.unnest(p_keys) as u(k)
    left join public.items i
      on u.k in ('albums/' || i.album_id || '/' || i.id || '/original', 'albums/' || i.album_id || '/' || i.id || '/preview.webp',
                 'albums/' || i.album_id || '/' || i.id || '/thumb.webp', 'albums/' || i.album_id || '/' || i.id || '/poster.webp')
     and i.id = private.uuid_or_null(pg_catalog.split_part(u.k, '/', 3))
     and exists (select 1 from public.share_guest_items gi where gi.item_id = i.id and gi.guest_id = v_guest.id);
end $$;

create or replace function private.ready_needs_original() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_size bigint := private.stored_size(new.id, new.original_key);
  v_want bigint := coalesce(new.stored_bytes, new.bytes);
begin
  if v_size is null then
    perform private.fail('upload/interrupted', 'The file has not reached the storage yet: send it, then finish.');
  end if;
  if v_size <> v_want then
    perform private.fail('upload/integrity',
      pg_catalog.format('The stored file has %s bytes where %s were reserved: send it again.', v_size, v_want));
  end if;
  return new;
end $$;
