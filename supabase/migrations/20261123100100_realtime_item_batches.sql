-- Items are sent to the album's topic per statement, not per row: a statement that changes more than 100 of an
-- album's items (a large trash, restore or purge) sends one message saying the album changed, and the page reads
-- again, instead of one message per item; the live check on the album is made once per album, not per row.
drop trigger items_broadcast on public.items;

create function private.broadcast_item_changes() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_rows text := case when tg_op = 'DELETE' then 'old_rows' else 'new_rows' end;
  v_album uuid;
  v_count bigint;
begin
  for v_album, v_count in
    execute format('select r.album_id, count(*) from %I r where r.status = %L group by r.album_id', v_rows, 'ready')
  loop
    if not private.album_is_live(v_album) then continue; end if;
    if v_count > 100 then
      perform private.send_change('album:' || v_album, 'albums', 'UPDATE', v_album, jsonb_build_object('id', v_album));
    else
      execute format(
        'select private.send_change($1, %L, %L, $2, %s) from %I r where r.album_id = $2 and r.status = %L',
        'items', tg_op, case when tg_op = 'DELETE' then 'jsonb_build_object(''id'', r.id)' else 'to_jsonb(r)' end, v_rows, 'ready')
      using 'album:' || v_album, v_album;
    end if;
  end loop;
  return null;
end $$;
revoke all on function private.broadcast_item_changes() from public, anon, authenticated;

create trigger items_broadcast_insert after insert on public.items
  referencing new table as new_rows for each statement execute function private.broadcast_item_changes();
create trigger items_broadcast_update after update on public.items
  referencing new table as new_rows for each statement execute function private.broadcast_item_changes();
create trigger items_broadcast_delete after delete on public.items
  referencing old table as old_rows for each statement execute function private.broadcast_item_changes();
