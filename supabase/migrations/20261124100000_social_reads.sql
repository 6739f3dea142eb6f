-- What the viewer and the album's filters read of comments and favourites (PRODUCT.md §3, §6): an item's
-- comments with their authors' names, who gave an item a heart, the caller's own favourites as a keyset
-- listing, one person's items, and the month counts the grid lays out from under the same two filters.
--
-- [Note: Favourites filter]
-- "Favourites" in an album are the caller's own hearts, never someone else's (Immich #7577). The listing goes
-- from the caller's favourites (favorites_user_id_idx: user_id, album_id) to the items by key, so its cost
-- follows how many hearts the person gave, not the album's size. A view that runs as the caller keeps RLS
-- on items deciding what is seen.

create view public.my_favorite_items with (security_invoker = true) as
  select i.*
  from public.favorites f
  join public.items i on i.album_id = f.album_id and i.id = f.item_id
  where f.user_id = (select auth.uid());
revoke all on public.my_favorite_items from anon, authenticated;
grant select on public.my_favorite_items to authenticated;

-- One person's items ("Added by Ana"), newest first under either sort.
create index items_album_uploader_taken_idx on public.items (album_id, uploader_id, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;

-- The month counts under the album's filters: the caller's favourites only, and one uploader's items only.
drop function public.count_items_by_month(uuid, text, boolean, text);
create function public.count_items_by_month(p_album_id uuid, p_sort text, p_trashed boolean default false,
                                            p_kind text default null, p_favorites_only boolean default false,
                                            p_uploader_id uuid default null)
returns table (month text, count bigint)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if p_sort is null or p_sort not in ('taken', 'added') then
    perform private.fail('validation/invalid', 'Sort by taken or added.');
  end if;
  if p_kind is not null and p_kind not in ('image', 'video', 'file') then
    perform private.fail('validation/invalid', 'Unknown kind.');
  end if;
  if coalesce(p_favorites_only, false) then
    return query
      select pg_catalog.to_char(case when p_sort = 'taken' then i.sort_taken else i.created_at end at time zone 'UTC', 'YYYY-MM') as m,
             pg_catalog.count(*)
      from public.favorites f
      join public.items i on i.album_id = f.album_id and i.id = f.item_id
      where f.user_id = v_uid and f.album_id = p_album_id and i.status = 'ready'
        and (case when coalesce(p_trashed, false) then i.deleted_at is not null else i.deleted_at is null end)
        and (p_kind is null or i.kind = p_kind)
        and (p_uploader_id is null or i.uploader_id = p_uploader_id)
      group by 1
      order by 1 desc;
    return;
  end if;
  return query
    select pg_catalog.to_char(case when p_sort = 'taken' then i.sort_taken else i.created_at end at time zone 'UTC', 'YYYY-MM') as m,
           pg_catalog.count(*)
    from public.items i
    where i.album_id = p_album_id and i.status = 'ready'
      and (case when coalesce(p_trashed, false) then i.deleted_at is not null else i.deleted_at is null end)
      and (p_kind is null or i.kind = p_kind)
      and (p_uploader_id is null or i.uploader_id = p_uploader_id)
    group by 1
    order by 1 desc;
end $$;

-- An item's comments, oldest first, with each author's name as it is now. An author who left the album (or
-- whose account is gone) keeps their words and their name (or none) next to them.
create function public.item_comments(p_album_id uuid, p_item_id uuid)
returns table (id uuid, item_id uuid, album_id uuid, author_id uuid, author_name text, body text,
               created_at timestamptz, edited_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if not exists (select 1 from public.items i where i.album_id = p_album_id and i.id = p_item_id
                   and (i.status = 'ready' or i.uploader_id = v_uid)) then
    perform private.fail('item/not-found', 'This item is not in the album.');
  end if;
  return query
    select c.id, c.item_id, c.album_id, c.author_id, coalesce(p.display_name, ''), c.body, c.created_at, c.edited_at
    from public.comments c left join public.profiles p on p.id = c.author_id
    where c.album_id = p_album_id and c.item_id = p_item_id
    order by c.created_at, c.id;
end $$;

-- Who gave an item a heart, the earliest first.
create function public.item_favoriters(p_album_id uuid, p_item_id uuid)
returns table (user_id uuid, display_name text, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  return query
    select f.user_id, p.display_name, f.created_at
    from public.favorites f join public.profiles p on p.id = f.user_id
    where f.album_id = p_album_id and f.item_id = p_item_id
    order by f.created_at, f.user_id;
end $$;

revoke all on function public.count_items_by_month(uuid, text, boolean, text, boolean, uuid),
  public.item_comments(uuid, uuid), public.item_favoriters(uuid, uuid) from public, anon;
grant execute on function public.count_items_by_month(uuid, text, boolean, text, boolean, uuid),
  public.item_comments(uuid, uuid), public.item_favoriters(uuid, uuid) to authenticated, service_role;
