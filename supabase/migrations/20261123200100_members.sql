-- Members (PRODUCT.md §6): the owner hands the album over (transfer_ownership), anyone but the owner leaves,
-- keeping or trashing what they added (leave_album), and each change of membership is in the album's activity.
--   * transfer_ownership: owner only, to another member; the old owner becomes an editor, albums.owner_id
--     follows, and the album row is locked first so two hand-overs never leave two owners (the unique index
--     on the owner row would refuse it anyway);
--   * set_member_role: owner only; the owner's own role changes only by handing the album over
--     (`album/forbidden`), and `owner` as the new role is a hand-over;
--   * remove_member: the owner removes anyone else; a member removing themselves leaves, keeping their items;
--   * leave_album: `album/forbidden` for the owner (an album has one owner, who would leave it ownerless);
--     with keep_items false their ready items go to the trash by the path trash_items takes (counters,
--     cover, activity), and their unfinished uploads go as on removal ([Note: Pending uploads]).

-- Moves items of one album to the trash: the rows, the cover if it was one of them, one line of activity.
-- The caller's right to do so is checked before (check_item_batch, or leaving with one's own items).
create function private.trash_album_items(p_album_id uuid, p_item_ids uuid[]) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_n int;
begin
  update public.items set deleted_at = now()
  where album_id = p_album_id and id = any (p_item_ids) and status = 'ready' and deleted_at is null;
  get diagnostics v_n = row_count;
  update public.albums set cover_item_id = null where id = p_album_id and cover_item_id = any (p_item_ids);
  perform private.record_activity(p_album_id, 'trashed_items', v_n);
  return v_n;
end $$;

create or replace function public.trash_items(p_album_id uuid, p_item_ids uuid[]) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.check_item_batch(p_album_id, p_item_ids);
  perform private.trash_album_items(p_album_id, p_item_ids);
end $$;

create function public.transfer_ownership(p_album_id uuid, p_new_owner_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner']);
  -- One hand-over at a time; the caller must still be the owner once it is their turn.
  perform 1 from public.albums a where a.id = p_album_id for update;
  perform private.require_role(p_album_id, array['owner']);
  if p_new_owner_id is null or p_new_owner_id = v_uid then
    perform private.fail('validation/invalid', 'Choose another member as the new owner.');
  end if;
  if not exists (select 1 from public.album_members m where m.album_id = p_album_id and m.user_id = p_new_owner_id) then
    perform private.fail('validation/invalid', 'The new owner must be a member of the album.');
  end if;
  update public.album_members set role = 'editor' where album_id = p_album_id and user_id = v_uid;
  update public.album_members set role = 'owner' where album_id = p_album_id and user_id = p_new_owner_id;
  update public.albums set owner_id = p_new_owner_id where id = p_album_id;
  perform private.record_activity(p_album_id, 'transferred_ownership', 1, p_new_owner_id);
end $$;

create or replace function public.set_member_role(p_album_id uuid, p_user_id uuid, p_role text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_old text;
begin
  perform private.require_role(p_album_id, array['owner']);
  if p_role is null or p_role not in ('owner', 'editor', 'contributor', 'viewer') then
    perform private.fail('validation/invalid', 'Unknown role.');
  end if;
  if p_user_id = v_uid then
    perform private.fail('album/forbidden', 'The owner takes another role only by handing the album over to someone else.');
  end if;
  if p_role = 'owner' then
    perform public.transfer_ownership(p_album_id, p_user_id);
    return;
  end if;
  select m.role into v_old from public.album_members m where m.album_id = p_album_id and m.user_id = p_user_id for update;
  if v_old is null then
    perform private.fail('validation/invalid', 'This person is not a member of the album.');
  end if;
  if v_old <> p_role then
    update public.album_members set role = p_role where album_id = p_album_id and user_id = p_user_id;
    perform private.record_activity(p_album_id, 'changed_role', 1, p_user_id);
  end if;
end $$;

create function public.leave_album(p_album_id uuid, p_keep_items boolean) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_role text := private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
begin
  if v_role = 'owner' then
    perform private.fail('album/forbidden', 'The owner hands the album over before leaving it.');
  end if;
  if p_keep_items is null then
    perform private.fail('validation/invalid', 'Say whether the items you added stay in the album.');
  end if;
  if not p_keep_items then
    perform private.trash_album_items(p_album_id, array(
      select i.id from public.items i
      where i.album_id = p_album_id and i.uploader_id = v_uid and i.status = 'ready' and i.deleted_at is null));
  end if;
  perform private.drop_pending_items(p_album_id, array(
    select i.id from public.items i where i.uploader_id = v_uid and i.album_id = p_album_id and i.status <> 'ready'));
  perform private.record_activity(p_album_id, 'left', 1);
  delete from public.album_members where album_id = p_album_id and user_id = v_uid;
end $$;

-- The owner removes anyone else; removing oneself is leaving, with one's items kept.
create or replace function public.remove_member(p_album_id uuid, p_user_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_role text := private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
begin
  if p_user_id = v_uid then
    perform public.leave_album(p_album_id, true);
    return;
  end if;
  if v_role <> 'owner' then
    perform private.fail('album/forbidden', 'Only the owner removes members.');
  end if;
  delete from public.album_members where album_id = p_album_id and user_id = p_user_id;
  if not found then
    perform private.fail('validation/invalid', 'This person is not a member of the album.');
  end if;
  perform private.drop_pending_items(p_album_id, array(
    select i.id from public.items i where i.uploader_id = p_user_id and i.album_id = p_album_id and i.status <> 'ready'));
  perform private.record_activity(p_album_id, 'removed_member', 1, p_user_id);
end $$;

revoke all on function private.trash_album_items(uuid, uuid[]) from public, anon, authenticated;
revoke all on function public.transfer_ownership(uuid, uuid), public.leave_album(uuid, boolean) from public, anon;
grant execute on function public.transfer_ownership(uuid, uuid), public.leave_album(uuid, boolean) to authenticated, service_role;
