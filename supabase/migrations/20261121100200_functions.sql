-- Multi-step writes as SQL functions (called over PostgREST RPC). Each runs as the table owner
-- (`security definer`, empty search_path, every name qualified), checks the caller's role itself, and
-- raises errors whose message is an error code of PRODUCT.md §8:
--   raise exception using errcode = 'P0001', message = '<code>', detail = '<sentence>'.
-- A caller who is not a member of an album (or the album is deleted) always gets `album/not-found`,
-- exactly as for an album that never existed.

create function private.fail(p_code text, p_detail text) returns void
language plpgsql set search_path = '' as $$
begin
  raise exception using errcode = 'P0001', message = p_code, detail = p_detail;
end $$;

-- The caller's role in an album, or `album/not-found`; `album/forbidden` unless it is one of `p_roles`.
create function private.require_role(p_album_id uuid, p_roles text[]) returns text
language plpgsql stable set search_path = '' as $$
declare
  v_role text;
begin
  select m.role into v_role
  from public.album_members m join public.albums a on a.id = m.album_id
  where m.album_id = p_album_id and m.user_id = (select auth.uid()) and a.deleted_at is null;
  if v_role is null then
    perform private.fail('album/not-found', 'This album does not exist or you are not a member of it.');
  end if;
  if not (v_role = any (p_roles)) then
    perform private.fail('album/forbidden', 'Your role in this album does not allow this.');
  end if;
  return v_role;
end $$;

create function private.require_user() returns uuid
language plpgsql stable set search_path = '' as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    perform private.fail('album/not-found', 'Sign in first.');
  end if;
  return v_uid;
end $$;

-- A new 128-bit token, base64url without padding, and the hex sha-256 that is stored in its place.
create function private.new_token(out token text, out token_hash text)
language plpgsql volatile set search_path = '' as $$
begin
  token := pg_catalog.rtrim(pg_catalog.translate(pg_catalog.encode(extensions.gen_random_bytes(16), 'base64'), '+/', '-_'), '=');
  token_hash := private.hash_token(token);
end $$;

create function private.hash_token(p_token text) returns text
language sql immutable set search_path = '' as $$
  select pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex')
$$;

-- Adds to the actor's latest activity of the same kind in this album when it is recent, so an upload of
-- 500 files is one line in the feed, not 500.
create function private.record_activity(p_album_id uuid, p_verb text, p_count int, p_subject uuid default null) returns void
language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  if p_count < 1 then return; end if;
  select ac.id into v_id from public.activity ac
  where ac.album_id = p_album_id and ac.actor_id = (select auth.uid()) and ac.verb = p_verb
    and ac.created_at > now() - interval '10 minutes'
  order by ac.created_at desc limit 1;
  if v_id is not null and p_verb in ('added_items', 'trashed_items', 'restored_items') then
    update public.activity set count = count + p_count, created_at = now() where id = v_id;
  else
    insert into public.activity (album_id, actor_id, verb, subject, count)
    values (p_album_id, (select auth.uid()), p_verb, p_subject, p_count);
  end if;
end $$;

-- Albums ---------------------------------------------------------------------------------------------

create function public.create_album(p_title text, p_description text default '') returns setof public.album_summaries
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_title text := pg_catalog.btrim(coalesce(p_title, ''));
  v_description text := coalesce(p_description, '');
  v_id uuid;
begin
  if not private.is_clean_text(v_title, 120) then
    perform private.fail('validation/invalid', 'A title needs 1 to 120 characters, without control characters.');
  end if;
  if not private.is_free_text(v_description, 2000) then
    perform private.fail('validation/invalid', 'A description has at most 2,000 characters.');
  end if;
  insert into public.albums (owner_id, title, description) values (v_uid, v_title, v_description) returning id into v_id;
  insert into public.album_members (album_id, user_id, role, added_by) values (v_id, v_uid, 'owner', v_uid);
  perform private.record_activity(v_id, 'created_album', 1);
  return query select * from public.album_summaries s where s.id = v_id;
end $$;

create function public.update_album(p_album_id uuid, p_patch jsonb) returns setof public.album_summaries
language plpgsql security definer set search_path = '' as $$
declare
  v_key text;
  v_title text;
  v_description text;
  v_cover uuid;
begin
  perform private.require_role(p_album_id, array['owner', 'editor']);
  if p_patch is null or pg_catalog.jsonb_typeof(p_patch) <> 'object' then
    perform private.fail('validation/invalid', 'The change must be an object.');
  end if;
  for v_key in select pg_catalog.jsonb_object_keys(p_patch) loop
    if v_key not in ('title', 'description', 'cover_item_id') then
      perform private.fail('validation/invalid', 'Only the title, description and cover can be changed.');
    end if;
  end loop;
  if p_patch ? 'title' then
    v_title := pg_catalog.btrim(coalesce(p_patch ->> 'title', ''));
    if not private.is_clean_text(v_title, 120) then
      perform private.fail('validation/invalid', 'A title needs 1 to 120 characters, without control characters.');
    end if;
    update public.albums set title = v_title where id = p_album_id;
  end if;
  if p_patch ? 'description' then
    v_description := coalesce(p_patch ->> 'description', '');
    if not private.is_free_text(v_description, 2000) then
      perform private.fail('validation/invalid', 'A description has at most 2,000 characters.');
    end if;
    update public.albums set description = v_description where id = p_album_id;
  end if;
  if p_patch ? 'cover_item_id' then
    if p_patch -> 'cover_item_id' = 'null'::jsonb then
      v_cover := null;
    else
      begin
        v_cover := (p_patch ->> 'cover_item_id')::uuid;
      exception when invalid_text_representation then
        perform private.fail('validation/invalid', 'The cover must be an item id.');
      end;
      if not exists (select 1 from public.items i where i.album_id = p_album_id and i.id = v_cover
                     and i.status = 'ready' and i.deleted_at is null) then
        perform private.fail('item/not-found', 'The cover must be an item of this album.');
      end if;
    end if;
    update public.albums set cover_item_id = v_cover where id = p_album_id;
  end if;
  return query select * from public.album_summaries s where s.id = p_album_id;
end $$;

-- The album disappears for everyone at once; its rows and objects are purged later with the bucket's keys.
create function public.delete_album(p_album_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner']);
  update public.albums set deleted_at = now() where id = p_album_id;
end $$;

create function public.count_items_by_month(p_album_id uuid, p_sort text, p_trashed boolean default false, p_kind text default null)
returns table (month text, count bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if p_sort is null or p_sort not in ('taken', 'added') then
    perform private.fail('validation/invalid', 'Sort by taken or added.');
  end if;
  if p_kind is not null and p_kind not in ('image', 'video', 'file') then
    perform private.fail('validation/invalid', 'Unknown kind.');
  end if;
  return query
    select pg_catalog.to_char(case when p_sort = 'taken' then i.sort_taken else i.created_at end at time zone 'UTC', 'YYYY-MM') as m,
           pg_catalog.count(*)
    from public.items i
    where i.album_id = p_album_id and i.status = 'ready'
      and (case when coalesce(p_trashed, false) then i.deleted_at is not null else i.deleted_at is null end)
      and (p_kind is null or i.kind = p_kind)
    group by 1
    order by 1 desc;
end $$;

-- Items ----------------------------------------------------------------------------------------------

-- [Note: Reserving items]
-- The client chooses each item's id, so a retried reserve (after a lost response or a reload) returns
-- the same rows instead of adding duplicates; a `failed` item reserved again goes back to `uploading`.
-- An id that belongs to someone else's item, or to another album, is refused. Rows stay invisible to
-- other members until finalize_item marks them `ready`; only then do the album's counters move.
create function public.reserve_items(p_album_id uuid, p_items jsonb) returns setof public.items
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
  if (select a.item_count from public.albums a where a.id = p_album_id)
     + (select pg_catalog.count(*) from public.items i where i.album_id = p_album_id and i.status <> 'ready')
     + v_new > 1000000 then
    perform private.fail('upload/quota-exceeded', 'An album holds at most 1,000,000 items.');
  end if;

  insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key)
  select r.id, p_album_id, v_uid, r.kind, 'uploading', r.filename, r.mime, r.bytes,
         'albums/' || p_album_id || '/' || r.id || '/original'
  from pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint)
  on conflict (id) do update set status = 'uploading'
    where public.items.status = 'failed';

  return query
    select i.* from public.items i join pg_catalog.jsonb_to_recordset(p_items) as r(id uuid, filename text, mime text, kind text, bytes bigint) on r.id = i.id
    where i.album_id = p_album_id
    order by i.created_at, i.id;
end $$;

create function public.finalize_item(p_album_id uuid, p_item_id uuid, p_input jsonb) returns setof public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_item public.items;
  v_width int;
  v_height int;
  v_duration bigint;
  v_taken timestamptz;
  v_base text;
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor']);
  select * into v_item from public.items i
  where i.id = p_item_id and i.album_id = p_album_id and i.uploader_id = v_uid
  for update;
  if v_item.id is null then
    perform private.fail('item/not-found', 'This item is not one of your uploads in this album.');
  end if;
  if v_item.status = 'ready' then
    -- A repeated finalize (the response was lost) changes nothing.
    return query select * from public.items i where i.id = p_item_id;
    return;
  end if;
  if v_item.status <> 'uploading' then
    perform private.fail('validation/invalid', 'This upload was marked failed; reserve it again first.');
  end if;
  if p_input is null or pg_catalog.jsonb_typeof(p_input) <> 'object'
     or coalesce(p_input ->> 'sha256', '') !~ '^[0-9a-f]{64}$'
     or (p_input ? 'metadata' and pg_catalog.jsonb_typeof(p_input -> 'metadata') not in ('object', 'null')) then
    perform private.fail('validation/invalid', 'The upload needs its sha-256 and an object of metadata.');
  end if;
  begin
    v_width := (p_input ->> 'width')::int;
    v_height := (p_input ->> 'height')::int;
    v_duration := (p_input ->> 'duration_ms')::bigint;
    v_taken := (p_input ->> 'taken_at')::timestamptz;
  exception when others then
    perform private.fail('validation/invalid', 'Width, height, duration and date must be numbers and a timestamp.');
  end;
  v_base := 'albums/' || p_album_id || '/' || p_item_id || '/';
  update public.items set
    status = 'ready',
    sha256 = p_input ->> 'sha256',
    width = v_width,
    height = v_height,
    duration_ms = v_duration,
    taken_at = v_taken,
    thumbhash = p_input ->> 'thumbhash',
    metadata = coalesce(nullif(p_input -> 'metadata', 'null'::jsonb), '{}'::jsonb),
    preview_key = case when coalesce((p_input ->> 'has_preview')::boolean, false)
                       then v_base || case when v_item.kind = 'video' then 'poster.webp' else 'preview.webp' end end,
    thumb_key = case when coalesce((p_input ->> 'has_thumb')::boolean, false) then v_base || 'thumb.webp' end
  where id = p_item_id;
  perform private.record_activity(p_album_id, 'added_items', 1, p_item_id);
  return query select * from public.items i where i.id = p_item_id;
end $$;

create function public.fail_item(p_album_id uuid, p_item_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if not exists (select 1 from public.items i where i.id = p_item_id and i.album_id = p_album_id and i.uploader_id = v_uid) then
    perform private.fail('item/not-found', 'This item is not one of your uploads in this album.');
  end if;
  -- A ready item stays ready: a late failure report must not hide a finished upload.
  update public.items set status = 'failed' where id = p_item_id and status = 'uploading';
end $$;

-- Owner and editor may trash or restore any item; a contributor only their own; a viewer none.
-- All or nothing: one item the caller may not touch refuses the whole call.
create function private.check_item_batch(p_album_id uuid, p_item_ids uuid[]) returns void
language plpgsql stable set search_path = '' as $$
declare
  v_role text := private.require_role(p_album_id, array['owner', 'editor', 'contributor']);
begin
  if p_item_ids is null or pg_catalog.cardinality(p_item_ids) = 0 or pg_catalog.cardinality(p_item_ids) > 10000 then
    perform private.fail('validation/invalid', 'Choose 1 to 10,000 items.');
  end if;
  if exists (select 1 from pg_catalog.unnest(p_item_ids) u(id)
             where not exists (select 1 from public.items i where i.id = u.id and i.album_id = p_album_id and i.status = 'ready')) then
    perform private.fail('item/not-found', 'Some of these items are not in this album.');
  end if;
  if v_role = 'contributor' and exists (
      select 1 from public.items i
      where i.id = any (p_item_ids) and i.uploader_id is distinct from (select auth.uid())) then
    perform private.fail('album/forbidden', 'Contributors can only remove their own items.');
  end if;
end $$;

create function public.trash_items(p_album_id uuid, p_item_ids uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_n int;
begin
  perform private.check_item_batch(p_album_id, p_item_ids);
  update public.items set deleted_at = now()
  where album_id = p_album_id and id = any (p_item_ids) and deleted_at is null;
  get diagnostics v_n = row_count;
  update public.albums set cover_item_id = null where id = p_album_id and cover_item_id = any (p_item_ids);
  perform private.record_activity(p_album_id, 'trashed_items', v_n);
end $$;

create function public.restore_items(p_album_id uuid, p_item_ids uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_n int;
begin
  perform private.check_item_batch(p_album_id, p_item_ids);
  update public.items set deleted_at = null
  where album_id = p_album_id and id = any (p_item_ids) and deleted_at is not null;
  get diagnostics v_n = row_count;
  perform private.record_activity(p_album_id, 'restored_items', v_n);
end $$;

-- Members --------------------------------------------------------------------------------------------

-- Setting someone to `owner` hands the album over: the previous owner becomes an editor.
create function public.set_member_role(p_album_id uuid, p_user_id uuid, p_role text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner']);
  if p_role is null or p_role not in ('owner', 'editor', 'contributor', 'viewer') then
    perform private.fail('validation/invalid', 'Unknown role.');
  end if;
  if p_user_id = v_uid then
    perform private.fail('validation/invalid', 'The owner hands the album over by making someone else the owner.');
  end if;
  if not exists (select 1 from public.album_members m where m.album_id = p_album_id and m.user_id = p_user_id) then
    perform private.fail('validation/invalid', 'This person is not a member of the album.');
  end if;
  if p_role = 'owner' then
    update public.album_members set role = 'editor' where album_id = p_album_id and user_id = v_uid;
    update public.albums set owner_id = p_user_id where id = p_album_id;
  end if;
  update public.album_members set role = p_role where album_id = p_album_id and user_id = p_user_id;
end $$;

-- The owner removes anyone else; any other member may leave.
create function public.remove_member(p_album_id uuid, p_user_id uuid) returns void
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
end $$;

-- Invites --------------------------------------------------------------------------------------------

create function public.create_invite(p_album_id uuid, p_role text, p_email text default null,
                                     p_expires_at timestamptz default null, p_max_uses int default null)
returns table (invite_id uuid, token text)
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_token record;
  v_email text := nullif(pg_catalog.btrim(coalesce(p_email, '')), '');
begin
  perform private.require_role(p_album_id, array['owner']);
  if p_role is null or p_role not in ('editor', 'contributor', 'viewer') then
    perform private.fail('validation/invalid', 'Invite as editor, contributor or viewer.');
  end if;
  if p_expires_at is not null and (p_expires_at <= now() or p_expires_at > now() + interval '1 year') then
    perform private.fail('validation/invalid', 'An invite expires between now and one year from now.');
  end if;
  if p_max_uses is not null and p_max_uses < 1 then
    perform private.fail('validation/invalid', 'An invite can be used at least once.');
  end if;
  if v_email is not null and (pg_catalog.char_length(v_email) > 320 or v_email !~ '^[^@[:space:]]+@[^@[:space:]]+$') then
    perform private.fail('validation/invalid', 'This is not an e-mail address.');
  end if;
  v_token := private.new_token();
  insert into public.invites (album_id, role, token_hash, email, expires_at, max_uses, created_by)
  values (p_album_id, p_role, v_token.token_hash, pg_catalog.lower(v_email),
          coalesce(p_expires_at, now() + interval '7 days'), p_max_uses, v_uid)
  returning id into invite_id;
  token := v_token.token;
  return next;
end $$;

-- Accepting twice, or as someone who is already a member, changes nothing (no role is lowered).
create function public.accept_invite(p_token text) returns setof public.album_summaries
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_inv public.invites;
  v_email text := pg_catalog.lower(coalesce((select auth.jwt()) ->> 'email', ''));
begin
  select i.* into v_inv from public.invites i
  join public.albums a on a.id = i.album_id and a.deleted_at is null
  where i.token_hash = private.hash_token(coalesce(p_token, ''))
  for update of i;
  if v_inv.id is null then
    perform private.fail('share/not-found', 'This invitation does not exist.');
  end if;
  if exists (select 1 from public.album_members m where m.album_id = v_inv.album_id and m.user_id = v_uid) then
    return query select * from public.album_summaries s where s.id = v_inv.album_id;
    return;
  end if;
  if v_inv.revoked_at is not null then
    perform private.fail('share/revoked', 'This invitation was withdrawn.');
  end if;
  if v_inv.expires_at <= now() or (v_inv.max_uses is not null and v_inv.use_count >= v_inv.max_uses) then
    perform private.fail('share/expired', 'This invitation has expired or has been used up.');
  end if;
  if v_inv.email is not null and v_inv.email <> v_email then
    perform private.fail('share/not-found', 'This invitation is for another e-mail address.');
  end if;
  insert into public.album_members (album_id, user_id, role, added_by) values (v_inv.album_id, v_uid, v_inv.role, v_inv.created_by);
  update public.invites set use_count = use_count + 1 where id = v_inv.id;
  perform private.record_activity(v_inv.album_id, 'joined', 1);
  return query select * from public.album_summaries s where s.id = v_inv.album_id;
end $$;

-- Share links ----------------------------------------------------------------------------------------

-- Options: label, password_hash (PBKDF2 string made by the share-open function, or null), expires_at
-- (1 hour to 1 year ahead; null for none only when given explicitly; 30 days when absent),
-- allow_download (default true), allow_guest_upload (default false), max_views.
create function public.create_share_link(p_album_id uuid, p_options jsonb) returns table (link_id uuid, token text)
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_opts jsonb := coalesce(p_options, '{}'::jsonb);
  v_token record;
  v_expires timestamptz;
  v_label text;
  v_key text;
begin
  perform private.require_role(p_album_id, array['owner', 'editor']);
  if pg_catalog.jsonb_typeof(v_opts) <> 'object' then
    perform private.fail('validation/invalid', 'Options must be an object.');
  end if;
  for v_key in select pg_catalog.jsonb_object_keys(v_opts) loop
    if v_key not in ('label', 'password_hash', 'expires_at', 'allow_download', 'allow_guest_upload', 'max_views') then
      perform private.fail('validation/invalid', 'Unknown share link option.');
    end if;
  end loop;
  begin
    v_expires := case when v_opts ? 'expires_at' then (v_opts ->> 'expires_at')::timestamptz else now() + interval '30 days' end;
  exception when others then
    perform private.fail('validation/invalid', 'The expiry must be a timestamp.');
  end;
  if v_expires is not null and (v_expires < now() + interval '1 hour' or v_expires > now() + interval '1 year') then
    perform private.fail('validation/invalid', 'A link expires between one hour and one year from now.');
  end if;
  v_label := nullif(pg_catalog.btrim(coalesce(v_opts ->> 'label', '')), '');
  if v_label is not null and not private.is_clean_text(v_label, 120) then
    perform private.fail('validation/invalid', 'A label has at most 120 characters.');
  end if;
  v_token := private.new_token();
  begin
    insert into public.share_links (album_id, token_hash, label, password_hash, expires_at, allow_download,
                                    allow_guest_upload, max_views, created_by)
    values (p_album_id, v_token.token_hash, v_label, v_opts ->> 'password_hash', v_expires,
            coalesce((v_opts ->> 'allow_download')::boolean, true),
            coalesce((v_opts ->> 'allow_guest_upload')::boolean, false),
            (v_opts ->> 'max_views')::int, v_uid)
    returning id into link_id;
  exception when check_violation or invalid_text_representation or numeric_value_out_of_range then
    perform private.fail('validation/invalid', 'These share link options are not valid.');
  end;
  token := v_token.token;
  return next;
end $$;

-- Only signed-in users call these; share links reach the database through edge functions.
revoke all on all functions in schema public from public, anon;
grant execute on function
  public.create_album(text, text),
  public.update_album(uuid, jsonb),
  public.delete_album(uuid),
  public.count_items_by_month(uuid, text, boolean, text),
  public.reserve_items(uuid, jsonb),
  public.finalize_item(uuid, uuid, jsonb),
  public.fail_item(uuid, uuid),
  public.trash_items(uuid, uuid[]),
  public.restore_items(uuid, uuid[]),
  public.set_member_role(uuid, uuid, text),
  public.remove_member(uuid, uuid),
  public.create_invite(uuid, text, text, timestamptz, int),
  public.accept_invite(text),
  public.create_share_link(uuid, jsonb)
to authenticated, service_role;
revoke all on all functions in schema private from public, anon, authenticated;
grant execute on function private.my_album_ids(text[]) to authenticated;
grant execute on function private.is_clean_text(text, int), private.is_free_text(text, int) to authenticated, service_role;
