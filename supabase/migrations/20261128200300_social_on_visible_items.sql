-- Comments and hearts go only on items a member sees in the album: ready, not in the trash. Before, the
-- policies checked the album alone, so a comment on a trashed item was taken, and a comment or a heart on
-- another member's unfinished upload succeeded where a made-up id failed on the foreign key: a member could
-- tell which ids were someone's uploads in progress. Now both are refused by the policy, the same refusal as
-- an id that does not exist (the policy is checked before the foreign key).
drop policy comments_insert on public.comments;
create policy comments_insert on public.comments for insert to authenticated
  with check (
    author_id = (select auth.uid())
    and album_id in (select private.my_album_ids())
    and exists (select 1 from public.items i
                where i.id = comments.item_id and i.album_id = comments.album_id
                  and i.status = 'ready' and i.deleted_at is null));

drop policy favorites_insert on public.favorites;
create policy favorites_insert on public.favorites for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and album_id in (select private.my_album_ids())
    and exists (select 1 from public.items i
                where i.id = favorites.item_id and i.album_id = favorites.album_id
                  and i.status = 'ready' and i.deleted_at is null));
