-- A search across albums (`/search`) listens on the person's own topic, `user:{id}`, which heard of an album's
-- items only through its counts (20261123100000_realtime_authorization.sql): an edit of a title, keywords, a
-- rating or the date taken changes no count, so another member's search that it now matches, or no longer
-- matches, stayed as it was. An edit of ready items' details now tells each member's topic that the album's items
-- changed: an `albums` update naming only the album (the app reads it as "many of its items changed", as after a
-- bulk trash), with the same quiet time per album as counts, so a selection of ten thousand photos edited at once
-- is one message per member, and the app's second look once the quiet time has passed sees the rest.
create function private.broadcast_item_details_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_quiet_ms constant integer := 5000;
  v_member uuid;
begin
  -- An edit of an item already in the album: finishing an upload is told by the album's counts.
  if old.status <> 'ready' or new.status <> 'ready' or (old.metadata, old.taken_at) is not distinct from (new.metadata, new.taken_at) then
    return null;
  end if;
  if not private.album_is_live(new.album_id) then return null; end if;
  insert into private.album_count_notices as n (album_id, sent_at) values (new.album_id, now())
  on conflict (album_id) do update set sent_at = excluded.sent_at
    where n.sent_at <= excluded.sent_at - make_interval(secs => v_quiet_ms / 1000.0);
  if not found then return null; end if;
  for v_member in select m.user_id from public.album_members m where m.album_id = new.album_id loop
    perform private.send_change('user:' || v_member, 'albums', 'UPDATE', new.album_id,
                                pg_catalog.jsonb_build_object('id', new.album_id),
                                pg_catalog.jsonb_build_object('quiet_ms', v_quiet_ms));
  end loop;
  return null;
end $$;
revoke all on function private.broadcast_item_details_change() from public, anon, authenticated;

create trigger items_details_told after update of metadata, taken_at on public.items
  for each row execute function private.broadcast_item_details_change();
