-- Comments and favourites in the viewer and on the tiles (PRODUCT.md §6: every member comments and marks
-- favourites, viewers too).
--
-- [Note: Deleting a comment]
-- A deleted comment is deleted: its row goes (the author deletes their own; the owner and editors any), never
-- kept behind deleted_at. The words someone took back are then gone from the database, from every later read
-- and from the album's channel, whose delete message carries only the comment's id; counts need no filter.
-- deleted_at stays unwritten. An edit stamps edited_at itself: the author writes only the body, so an edit
-- cannot be hidden or back-dated.

delete from public.comments where deleted_at is not null;
revoke update (edited_at, deleted_at) on public.comments from authenticated;

create function private.comments_stamp_edit() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.edited_at := case when new.body is distinct from old.body then now() else old.edited_at end;
  return new;
end $$;
create trigger comments_stamp_edit before update on public.comments
  for each row execute function private.comments_stamp_edit();

-- Several comments by one person on one item within 10 minutes are one line of activity ("Ben commented on a
-- photo"), as uploads are.
create or replace function private.comments_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.activity set count = count + 1, created_at = now()
  where id = (select ac.id from public.activity ac
              where ac.album_id = new.album_id and ac.actor_id = new.author_id and ac.verb = 'commented'
                and ac.subject = new.item_id and ac.created_at > now() - interval '10 minutes'
              order by ac.created_at desc limit 1);
  if not found then
    insert into public.activity (album_id, actor_id, verb, subject) values (new.album_id, new.author_id, 'commented', new.item_id);
  end if;
  return null;
end $$;

-- For the tiles of one page: each given item's number of comments and favourites, and whether the caller
-- marked it. Items the caller cannot see (another's unfinished upload, another album's) are left out. At most
-- 1,000 ids: a page of the grid. Each count is an index lookup per item (comments_item_idx,
-- favorites_album_idx, the favorites key), whatever the album's size.
create function public.item_counts(p_album_id uuid, p_item_ids uuid[])
returns table (item_id uuid, comment_count integer, favorite_count integer, my_favorite boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if p_item_ids is null or pg_catalog.cardinality(p_item_ids) > 1000 then
    perform private.fail('validation/invalid', 'Ask about 0 to 1,000 items at once.');
  end if;
  return query
    select i.id,
           (select pg_catalog.count(*)::int from public.comments c where c.album_id = p_album_id and c.item_id = i.id),
           (select pg_catalog.count(*)::int from public.favorites f where f.album_id = p_album_id and f.item_id = i.id),
           exists (select 1 from public.favorites f where f.item_id = i.id and f.user_id = v_uid)
    from public.items i
    where i.id = any (p_item_ids) and i.album_id = p_album_id
      and (i.status = 'ready' or i.uploader_id = v_uid);
end $$;

revoke all on function private.comments_stamp_edit() from public, anon, authenticated;
revoke all on function public.item_counts(uuid, uuid[]) from public, anon;
grant execute on function public.item_counts(uuid, uuid[]) to authenticated, service_role;
