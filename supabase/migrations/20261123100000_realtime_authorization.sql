-- Live updates over private channels only (Supabase Realtime Authorization), sent from the database.
--
-- [Note: Private channels and broadcast from the database]
-- Realtime sends postgres_changes DELETE events to every subscriber of a table without asking RLS, with
-- the old row's primary key: anyone signed in who listened to album_members, albums or favorites heard
-- album ids and user ids of albums they are not in. So no table of ours is published any more: nothing
-- about an album travels as postgres_changes. Instead, row triggers send each change with realtime.send
-- to a private topic, and RLS on realtime.messages decides who may join it:
--   - `album:{id}`: the album's members receive (broadcast and presence) and track presence; owners,
--     editors and contributors (who may add items) also send the upload-progress broadcast. Every change
--     to the album's rows is one message, whatever the number of members: Realtime authorises a member
--     once, when they join, not once per change as postgres_changes does.
--   - `user:{id}`: only that user receives. The albums screen listens here: an album gained or lost
--     (membership added, removed, left, album deleted) and an album renamed, described or re-covered
--     are sent to each member's topic (rare: done by a person). Counters change with every finished
--     upload, so their fan-out is coalesced: at most one message per album per 5 s to its members'
--     topics, which says so (`quiet_ms`), and the screen reads once more when that time has passed.
-- Items reach the album topic only while every member may read them (ready, trashed or not); a row still
-- uploading is its uploader's business. A delete carries only the row's key. Deployment: Realtime's
-- "Allow public access" is turned off, so that no public channel can be joined at all.

alter publication supabase_realtime drop table
  public.items, public.comments, public.favorites, public.album_members, public.albums;

-- The album named by a topic `album:{uuid}`, or null for any other topic.
create function private.album_of_topic(p_topic text) returns uuid
language sql immutable set search_path = '' as $$
  select case when p_topic ~ '^album:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then substr(p_topic, 7)::uuid end
$$;
revoke all on function private.album_of_topic(text) from public, anon;
grant execute on function private.album_of_topic(text) to authenticated;

-- Receiving (joining) an album's channel: its members, for broadcast and presence.
create policy album_topic_receive on realtime.messages for select to authenticated
  using (extension in ('broadcast', 'presence')
         and private.album_of_topic((select realtime.topic())) in (select private.my_album_ids()));
-- Showing oneself as a viewer: every member.
create policy album_topic_presence on realtime.messages for insert to authenticated
  with check (extension = 'presence'
              and private.album_of_topic((select realtime.topic())) in (select private.my_album_ids()));
-- Broadcasting upload progress: those who may add items.
create policy album_topic_broadcast on realtime.messages for insert to authenticated
  with check (extension = 'broadcast'
              and private.album_of_topic((select realtime.topic()))
                  in (select private.my_album_ids(array['owner', 'editor', 'contributor'])));
-- One's own albums-screen topic: only oneself, and only what the database sends there.
create policy user_topic_receive on realtime.messages for select to authenticated
  using (extension = 'broadcast' and (select realtime.topic()) = 'user:' || (select auth.uid())::text);

-- One change as a message: `{table, op, album_id, row}`, on event `change`.
create function private.send_change(p_topic text, p_table text, p_op text, p_album_id uuid, p_row jsonb,
                                    p_extra jsonb default '{}'::jsonb) returns void
language sql security definer set search_path = '' as $$
  select realtime.send(
    jsonb_build_object('table', p_table, 'op', lower(p_op), 'album_id', p_album_id, 'row', p_row) || p_extra,
    'change', p_topic, true)
$$;

-- Whether the album still exists for its members (a purge deletes the rows of an album deleted earlier).
create function private.album_is_live(p_album_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.albums a where a.id = p_album_id and a.deleted_at is null)
$$;

create function private.broadcast_album_row_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_row jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
  v_album uuid := (v_row ->> 'album_id')::uuid;
  v_key text[] := case tg_table_name
                    when 'items' then array['id']
                    when 'comments' then array['id']
                    when 'favorites' then array['item_id', 'user_id']
                    else array['album_id', 'user_id'] end;
begin
  if tg_table_name = 'items' and (v_row ->> 'status') <> 'ready' then return null; end if;
  if not private.album_is_live(v_album) then return null; end if;
  if tg_op = 'DELETE' then
    select jsonb_object_agg(k, v_row -> k) into v_row from unnest(v_key) k;
  end if;
  perform private.send_change('album:' || v_album, tg_table_name, tg_op, v_album, v_row);
  -- The member concerned hears an album gained, lost, or a new role on their albums screen.
  if tg_table_name = 'album_members' then
    perform private.send_change('user:' || coalesce(new.user_id, old.user_id), tg_table_name, tg_op, v_album, v_row);
  end if;
  return null;
end $$;

create trigger items_broadcast after insert or update or delete on public.items
  for each row execute function private.broadcast_album_row_change();
create trigger comments_broadcast after insert or update or delete on public.comments
  for each row execute function private.broadcast_album_row_change();
create trigger favorites_broadcast after insert or update or delete on public.favorites
  for each row execute function private.broadcast_album_row_change();
create trigger album_members_broadcast after insert or update or delete on public.album_members
  for each row execute function private.broadcast_album_row_change();

-- When each album's counters were last sent to its members' topics (see the note above).
create table private.album_count_notices (
  album_id uuid primary key references public.albums (id) on delete cascade,
  sent_at timestamptz not null
);
alter table private.album_count_notices enable row level security;
revoke all on private.album_count_notices from public, anon, authenticated, service_role;

create function private.broadcast_album_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_quiet_ms constant integer := 5000;
  v_deleted boolean := old.deleted_at is null and new.deleted_at is not null;
  v_edited boolean := (old.title, old.description, old.cover_item_id) is distinct from (new.title, new.description, new.cover_item_id);
  v_counted boolean := (old.item_count, old.bytes_total) is distinct from (new.item_count, new.bytes_total);
  v_row jsonb := case when v_deleted then jsonb_build_object('id', new.id) else to_jsonb(new) end;
  v_op text := case when v_deleted then 'DELETE' else 'UPDATE' end;
  v_extra jsonb := '{}'::jsonb;
  v_member uuid;
begin
  if old.deleted_at is not null then return null; end if;
  if v_deleted or v_edited then
    perform private.send_change('album:' || new.id, 'albums', v_op, new.id, v_row);
  elsif v_counted then
    -- Item events tell the album page; the members' albums screens hear at most once per quiet time.
    insert into private.album_count_notices as n (album_id, sent_at) values (new.id, now())
    on conflict (album_id) do update set sent_at = excluded.sent_at
      where n.sent_at <= excluded.sent_at - make_interval(secs => v_quiet_ms / 1000.0);
    if not found then return null; end if;
    v_extra := jsonb_build_object('quiet_ms', v_quiet_ms);
  else
    return null;
  end if;
  for v_member in select m.user_id from public.album_members m where m.album_id = new.id loop
    perform private.send_change('user:' || v_member, 'albums', v_op, new.id, v_row, v_extra);
  end loop;
  return null;
end $$;

create trigger albums_broadcast after update on public.albums
  for each row execute function private.broadcast_album_change();

revoke all on function private.send_change(text, text, text, uuid, jsonb, jsonb), private.album_is_live(uuid),
  private.broadcast_album_row_change(), private.broadcast_album_change() from public, anon, authenticated;
