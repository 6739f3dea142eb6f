-- [Note: Database changes on a topic only the database sends to]
-- The album's changes travelled on `album:{id}`, the topic its members also send on (presence; owners, editors
-- and contributors their upload progress). Realtime authorises a sender once, when it joins, for the whole
-- topic, not per event: a contributor joined `album:{id}` and broadcast `change` payloads of their making, and
-- the other members' apps applied them (a comment "by the owner", an item deleted, a member made owner, the
-- album "deleted"). Now the database sends every change to `album-db:{id}`, which members may join to receive
-- and no one may send to (no insert policy names it); the app takes changes from there only. Presence and upload
-- progress stay on `album:{id}`: what a member says of themselves there is still theirs to say (Realtime does
-- not tell a receiver who sent a message).

-- The album named by a topic `album-db:{uuid}`, or null for any other topic.
create function private.album_of_changes_topic(p_topic text) returns uuid
language sql immutable set search_path = '' as $$
  select case when p_topic ~ '^album-db:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then substr(p_topic, 10)::uuid end
$$;
revoke all on function private.album_of_changes_topic(text) from public, anon;
grant execute on function private.album_of_changes_topic(text) to authenticated;

-- Receiving an album's changes: its members. Sending there: nobody but the database (realtime.send).
create policy album_changes_receive on realtime.messages for select to authenticated
  using (extension = 'broadcast'
         and private.album_of_changes_topic((select realtime.topic())) in (select private.my_album_ids()));

-- Every change the triggers address to `album:{id}` goes to `album-db:{id}` instead.
create or replace function private.send_change(p_topic text, p_table text, p_op text, p_album_id uuid, p_row jsonb,
                                               p_extra jsonb default '{}'::jsonb) returns void
language sql security definer set search_path = '' as $$
  select realtime.send(
    jsonb_build_object('table', p_table, 'op', lower(p_op), 'album_id', p_album_id, 'row', p_row) || p_extra,
    'change', case when p_topic like 'album:%' then 'album-db:' || substr(p_topic, 7) else p_topic end, true)
$$;
