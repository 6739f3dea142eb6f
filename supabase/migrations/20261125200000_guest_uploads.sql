-- Guest uploads through a share link (the share-upload edge function).
--
-- [Note: Guests of a share link]
-- A visitor of a link with guest uploads on gives a name and receives a guest token (128 random bits, stored
-- hashed in share_guests). Items a guest adds are ordinary items with uploader_id null and guest_label = the
-- guest's name, so members see "added by Ana (guest)" through the existing reads and realtime triggers. Which
-- guest added which item is kept beside items, in share_guest_items, so that no client read of items can
-- ever reach a guest token hash. Neither table is readable by any client: only the share-upload function
-- (the database owner) calls the private.guest_* functions below, after it has checked the visit token.
-- Every function re-checks the link (album not deleted, not revoked, not expired, guest uploads on), so a
-- revoked link stops a guest at once. Limits per guest (share_links.guest_max_files / guest_max_bytes) count
-- every item the guest holds, finished or not, and are decided with the guest's row locked, so two reserves
-- at once cannot both pass. A reserve whose sha256 is already a ready item of the album is not reserved: it
-- is answered as a duplicate.

create table public.share_guests (
  id uuid primary key default gen_random_uuid(),
  link_id uuid not null references public.share_links (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  name text not null check (private.is_clean_text(name, 60) and char_length(btrim(name)) >= 1),
  created_at timestamptz not null default now()
);
create index share_guests_link_idx on public.share_guests (link_id);

create table public.share_guest_items (
  item_id uuid primary key references public.items (id) on delete cascade,
  guest_id uuid not null references public.share_guests (id) on delete cascade,
  album_id uuid not null references public.albums (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index share_guest_items_guest_idx on public.share_guest_items (guest_id, created_at desc);
create index share_guest_items_album_idx on public.share_guest_items (album_id);

alter table public.share_guests enable row level security;
alter table public.share_guest_items enable row level security;
revoke all on public.share_guests, public.share_guest_items from anon, authenticated;

-- A guest's additions in the activity: "Ana (guest) added 2 photos". actor_id stays null (no account);
-- the line carries the guest's name and id so that one guest's additions within 10 minutes are one line.
alter table public.activity
  add column guest_label text check (guest_label is null or private.is_clean_text(guest_label, 60)),
  add column guest_id uuid references public.share_guests (id) on delete set null;
create index activity_guest_idx on public.activity (guest_id, album_id, created_at desc);

create or replace view public.activity_feed with (security_invoker = true) as
select ac.id, ac.album_id, al.title as album_title, ac.actor_id,
       coalesce(p.display_name, case when ac.guest_label is not null then ac.guest_label || ' (guest)' end) as actor_name,
       ac.verb, ac.subject, ac.count, ac.created_at,
       case when ac.verb = 'commented' then si.kind
            when ac.verb = 'added_items' then nullif(ac.item_kind, 'mixed') end as subject_kind
from public.activity ac
join public.albums al on al.id = ac.album_id
left join public.profiles p on p.id = ac.actor_id
left join public.items si on ac.verb = 'commented' and si.id = ac.subject;

revoke all on public.activity_feed from anon, authenticated;
grant select on public.activity_feed to authenticated;

-- The link of a guest's visit, or the share/* error a visitor sees; album/forbidden when guest uploads are off.
create function private.guest_link(p_link_id uuid) returns public.share_links
language plpgsql stable security definer set search_path = '' as $$
declare
  v_link public.share_links;
begin
  select l.* into v_link from public.share_links l join public.albums a on a.id = l.album_id
  where l.id = p_link_id and a.deleted_at is null;
  if v_link.id is null then
    perform private.fail('share/not-found', 'This link does not exist.');
  end if;
  if v_link.revoked_at is not null then
    perform private.fail('share/revoked', 'This link was turned off.');
  end if;
  if v_link.expires_at is not null and v_link.expires_at <= now() then
    perform private.fail('share/expired', 'This link has expired.');
  end if;
  if not v_link.allow_guest_upload then
    perform private.fail('album/forbidden', 'This link does not take uploads.');
  end if;
  return v_link;
end $$;

-- A guest joins a link: their name, and the token that is theirs from now on (returned once).
create function private.guest_join(p_link_id uuid, p_name text, out guest_id uuid, out token text)
language plpgsql security definer set search_path = '' as $$
declare
  v_name text := pg_catalog.btrim(coalesce(p_name, ''));
  v_token record;
begin
  perform private.guest_link(p_link_id);
  if not private.is_clean_text(v_name, 60) or pg_catalog.char_length(v_name) < 1 then
    perform private.fail('validation/invalid', 'A name has 1 to 60 characters.');
  end if;
  v_token := private.new_token();
  insert into public.share_guests (link_id, token_hash, name) values (p_link_id, v_token.token_hash, v_name)
  returning id into guest_id;
  token := v_token.token;
end $$;

-- The guest whose token this is, on this link (the link checked first), or share/password-required: a
-- token that is not this link's is as good as none, and the page asks again.
create function private.guest_of(p_link_id uuid, p_token text) returns public.share_guests
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests;
begin
  perform private.guest_link(p_link_id);
  select g.* into v_guest from public.share_guests g
  where g.link_id = p_link_id and g.token_hash = private.hash_token(coalesce(p_token, ''));
  if v_guest.id is null then
    raise exception using errcode = 'P0001', message = 'validation/invalid',
      detail = 'This guest is not known on this link: give your name again.', hint = '{"field":"guest","rule":"unknown"}';
  end if;
  return v_guest;
end $$;

-- How much a guest holds: every item they added that still exists, finished or not.
create function private.guest_usage(p_guest_id uuid, out used_files bigint, out used_bytes bigint)
language sql stable security definer set search_path = '' as $$
  select pg_catalog.count(*), coalesce(pg_catalog.sum(i.bytes), 0)::bigint
  from public.share_guest_items gi join public.items i on i.id = gi.item_id
  where gi.guest_id = p_guest_id
$$;

-- Reserves a guest's files, as reserve_items does for a member. Returns { items: [rows], duplicates: [ids] }.
create function private.guest_reserve(p_link_id uuid, p_token text, p_items jsonb) returns jsonb
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
        when pg_catalog.count(distinct r.id) <> pg_catalog.count(*) then 'validation/invalid'
      end into v_bad
    from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint, sha256 text);
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
  if (select a.item_count from public.albums a where a.id = v_album)
     + (select pg_catalog.count(*) from public.items i where i.album_id = v_album and i.status <> 'ready')
     + v_new_files > 1000000 then
    perform private.fail('upload/quota-exceeded', 'An album holds at most 1,000,000 items.');
  end if;

  with added as (
    insert into public.items (id, album_id, uploader_id, guest_label, kind, status, filename, mime, bytes, original_key)
    select r.id, v_album, null, v_guest.name, r.kind, 'uploading', r.filename, r.mime, r.bytes,
           'albums/' || v_album || '/' || r.id || '/original'
    from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint)
    where r.id <> all (v_dups)
    on conflict (id) do update set status = 'uploading', created_at = now()
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

-- The guest's own item, locked, or item/not-found.
create function private.guest_item(p_guest_id uuid, p_item_id uuid) returns public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_item public.items;
begin
  select i.* into v_item from public.items i join public.share_guest_items gi on gi.item_id = i.id
  where gi.guest_id = p_guest_id and i.id = p_item_id
  for update of i;
  if v_item.id is null then
    perform private.fail('item/not-found', 'This item is not one of your uploads.');
  end if;
  return v_item;
end $$;

-- Finishes a guest's upload, as finalize_item does for a member: the same checks of the input, through the
-- same function (run as the album's owner would not be right: it is done here with the guest's row).
create function private.guest_finalize(p_link_id uuid, p_token text, p_item_id uuid, p_input jsonb) returns public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
  v_item public.items := private.guest_item(v_guest.id, p_item_id);
  v_metadata jsonb;
  v_width int;
  v_height int;
  v_duration bigint;
  v_taken timestamptz;
  v_base text := 'albums/' || v_item.album_id || '/' || v_item.id || '/';
  v_line uuid;
begin
  if v_item.status = 'ready' then
    return v_item;
  end if;
  if v_item.status <> 'uploading' then
    perform private.fail('validation/invalid', 'This upload was marked failed; reserve it again first.');
  end if;
  if p_input is null or pg_catalog.jsonb_typeof(p_input) <> 'object'
     or coalesce(p_input ->> 'sha256', '') !~ '^[0-9a-f]{64}$'
     or (p_input ? 'metadata' and pg_catalog.jsonb_typeof(p_input -> 'metadata') not in ('object', 'null')) then
    perform private.fail('validation/invalid', 'The upload needs its sha-256 and an object of metadata.');
  end if;
  v_metadata := coalesce(nullif(p_input -> 'metadata', 'null'::jsonb), '{}'::jsonb);
  if not private.is_item_metadata(v_metadata) then
    perform private.fail('validation/invalid', 'Metadata holds only known fields, at most 16 KiB in all.');
  end if;
  begin
    v_width := (p_input ->> 'width')::int;
    v_height := (p_input ->> 'height')::int;
    v_duration := (p_input ->> 'duration_ms')::bigint;
    v_taken := (p_input ->> 'taken_at')::timestamptz;
  exception when others then
    perform private.fail('validation/invalid', 'Width, height, duration and date must be numbers and a timestamp.');
  end;
  update public.items set
    status = 'ready',
    sha256 = p_input ->> 'sha256',
    width = v_width,
    height = v_height,
    duration_ms = v_duration,
    taken_at = v_taken,
    thumbhash = p_input ->> 'thumbhash',
    metadata = v_metadata,
    preview_key = case when coalesce((p_input ->> 'has_preview')::boolean, false)
                       then v_base || case when v_item.kind = 'video' then 'poster.webp' else 'preview.webp' end end,
    thumb_key = case when coalesce((p_input ->> 'has_thumb')::boolean, false) then v_base || 'thumb.webp' end
  where id = p_item_id
  returning * into v_item;

  -- One line per guest within 10 minutes, as record_activity does for members.
  select ac.id into v_line from public.activity ac
  where ac.album_id = v_item.album_id and ac.guest_id = v_guest.id and ac.verb = 'added_items'
    and ac.created_at > now() - interval '10 minutes'
  order by ac.created_at desc limit 1;
  if v_line is not null then
    update public.activity
    set count = count + 1, created_at = now(),
        item_kind = case when item_kind is not distinct from v_item.kind then item_kind else 'mixed' end
    where id = v_line;
  else
    insert into public.activity (album_id, actor_id, guest_id, guest_label, verb, subject, count, item_kind)
    values (v_item.album_id, null, v_guest.id, v_guest.name, 'added_items', v_item.id, 1, v_item.kind);
  end if;
  return v_item;
end $$;

create function private.guest_fail(p_link_id uuid, p_token text, p_item_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  perform private.guest_item(v_guest.id, p_item_id);
  update public.items set status = 'failed' where id = p_item_id and status = 'uploading';
end $$;

-- The guest's items (not those a member has put in the trash), newest first.
create function private.guest_items(p_link_id uuid, p_token text) returns setof public.items
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  return query
    select i.* from public.share_guest_items gi join public.items i on i.id = gi.item_id
    where gi.guest_id = v_guest.id and i.deleted_at is null
    order by gi.created_at desc, i.id desc
    limit 10000;
end $$;

-- Whether each key is an object of one of the guest's own items, and that item's row (for the types).
-- Writes only while the item is uploading; reads of any of their items; never a delete (that is guest_delete).
create function private.guest_keys(p_link_id uuid, p_token text, p_keys text[], p_action text)
returns table (key text, allowed boolean, item_id uuid, mime text, filename text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_guest public.share_guests := private.guest_of(p_link_id, p_token);
begin
  return query
    select u.k, coalesce(i.id is not null and (
             (p_action = 'read') or (p_action = 'write' and i.status = 'uploading')), false),
           i.id, i.mime, i.filename
    from pg_catalog.unnest(p_keys) as u(k)
    left join public.items i
      on u.k in ('albums/' || i.album_id || '/' || i.id || '/original', 'albums/' || i.album_id || '/' || i.id || '/preview.webp',
                 'albums/' || i.album_id || '/' || i.id || '/thumb.webp', 'albums/' || i.album_id || '/' || i.id || '/poster.webp')
     and i.id = private.uuid_or_null(pg_catalog.split_part(u.k, '/', 3))
     and exists (select 1 from public.share_guest_items gi where gi.item_id = i.id and gi.guest_id = v_guest.id);
end $$;

-- Deletes those of the items that are the guest's own: rows now, with every key of theirs queued for the purge
-- in the same transaction; returns the keys, which the function deletes from the bucket at once.
create function private.guest_delete(p_link_id uuid, p_token text, p_item_ids uuid[]) returns setof text
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
    from doomed d cross join (values ('original'), ('preview.webp'), ('thumb.webp'), ('poster.webp')) as f(name)
  ), queued as (
    insert into private.purge_queue (key) select k.key from keys k
    on conflict on constraint purge_queue_pkey do nothing
  ), gone as (
    delete from public.items i using doomed d where i.id = d.id
  )
  select k.key from keys k;
end $$;

revoke all on function
  private.guest_link(uuid), private.guest_join(uuid, text), private.guest_of(uuid, text), private.guest_usage(uuid),
  private.guest_reserve(uuid, text, jsonb), private.guest_item(uuid, uuid), private.guest_finalize(uuid, text, uuid, jsonb),
  private.guest_fail(uuid, text, uuid), private.guest_items(uuid, text), private.guest_keys(uuid, text, text[], text),
  private.guest_delete(uuid, text, uuid[])
from public, anon, authenticated;
