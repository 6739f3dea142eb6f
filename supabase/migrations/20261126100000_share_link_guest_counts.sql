-- How many items guests added through each of an album's share links: the links list of the album settings
-- shows "Guest uploads on, 2 added". Which guest added which item is in share_guest_items, which no client
-- reads (20261125200000_guest_uploads.sql), so owners and editors get only the counts, through this function.
-- An item counts while it is in the album: finished and not in the trash (a guest's unfinished uploads and
-- what a member trashed are not "added"). Links with no such item are left out (their count is 0).
create function public.share_link_guest_counts(p_album_id uuid)
returns table (link_id uuid, guest_item_count bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_user();
  perform private.require_role(p_album_id, array['owner', 'editor']);
  return query
    select g.link_id, pg_catalog.count(*)
    from public.share_guest_items gi
    join public.share_guests g on g.id = gi.guest_id
    join public.items i on i.id = gi.item_id
    where gi.album_id = p_album_id and i.album_id = p_album_id and i.status = 'ready' and i.deleted_at is null
    group by g.link_id;
end $$;
revoke all on function public.share_link_guest_counts(uuid) from public, anon;
grant execute on function public.share_link_guest_counts(uuid) to authenticated, service_role;
