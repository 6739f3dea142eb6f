-- The invite page's cover key only for whoever is a member already. A key names the item
-- (albums/<album>/<item>/thumb.webp), and someone holding an invitation is not a member yet: the key told them
-- an item id of the album, which no policy lets them read anything with. They get the thumbhash placeholder
-- (20261124150000_invite_preview_placeholder.sql), which is what their page paints.

create or replace function public.invite_preview(p_token text)
returns table (album_title text, cover_thumb_key text, inviter_name text, cover_thumbhash text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_inv public.invites;
begin
  perform private.require_user();
  select i.* into v_inv from public.invites i
  join public.albums a on a.id = i.album_id and a.deleted_at is null
  where i.token_hash = private.hash_token(coalesce(p_token, ''));
  perform private.check_invite(v_inv, private.caller_email());
  return query
    select a.title,
           case when a.id in (select private.my_album_ids()) then coalesce(cv.thumb_key, nw.thumb_key) end,
           coalesce(p.display_name, ''),
           case when cv.id is not null then cv.thumbhash else nw.thumbhash end
    from public.albums a
    left join public.items cv
      on cv.album_id = a.id and cv.id = a.cover_item_id and cv.status = 'ready' and cv.deleted_at is null
    left join lateral (
      select i.thumb_key, i.thumbhash from public.items i
      where i.album_id = a.id and i.status = 'ready' and i.deleted_at is null
        and i.kind in ('image', 'video') and i.thumb_key is not null
      order by i.created_at desc, i.id desc
      limit 1
    ) nw on cv.id is null
    left join public.profiles p on p.id = v_inv.created_by
    where a.id = v_inv.album_id;
end $$;

