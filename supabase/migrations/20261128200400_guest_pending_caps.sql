-- [Note: Guests cannot block an album]
-- Unfinished uploads count toward an album's 1,000,000 items and only their uploader sees them. Members hold at
-- most 10,000 each ([Note: Pending uploads]); guests had no cap: two anonymous guests reserved 1,000,000 rows,
-- after which the owner's own upload was upload/quota-exceeded, and clearing them did not finish within the 8 s
-- statement timeout Supabase gives `authenticated`. Now:
--   * a link's guests together hold at most 1,000 unfinished uploads, and an album's guests (of all its links)
--     at most 2,000 (upload/quota-exceeded, decided with the album locked as before);
--   * a link takes at most 1,000 guests (each join is a new one; the cap is in guest_join, which
--     20261128200500_guest_per_browser.sql makes anew);
--   * clear_pending_items clears at most 5,000 rows per call, well within that timeout; the app calls it again
--     until a call clears fewer.

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

create or replace function public.clear_pending_items(p_album_id uuid) returns integer
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner']);
  return private.drop_pending_items(p_album_id, array(
    select i.id from public.items i
    where i.album_id = p_album_id and i.status <> 'ready' and i.uploader_id is distinct from (select auth.uid())
    limit 5000));
end $$;
