-- A write that has a SQL function goes only through that function. Direct table writes skipped its rules:
--   * DELETE on items removed rows for good, past the trash and the purge queue, so their objects stayed in
--     the bucket forever (trash_items is the way; the purge deletes rows and objects together);
--   * UPDATE of albums (cover_item_id) skipped update_album's rule that a cover is a ready photo or video of
--     the album (update_album is the way, for the title and description too);
--   * DELETE on album_members skipped remove_member, which also clears what the member left unfinished.
-- What stays direct has no function: item filename, date and metadata edits (the metadata bound is a
-- constraint), comments, favorites, invite and share link revocation and deletion, devices, profile names
-- (their rules are constraints as well).

drop policy albums_update on public.albums;
revoke update (title, description, cover_item_id) on public.albums from authenticated;
revoke update on public.albums from authenticated;

drop policy items_delete on public.items;
revoke delete on public.items from authenticated;

drop policy album_members_delete on public.album_members;
revoke delete on public.album_members from authenticated;
