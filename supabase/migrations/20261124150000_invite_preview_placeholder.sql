-- The invite page's cover. Whoever holds a valid invitation is not a member yet, so no policy lets them read
-- the cover's thumbnail from the bucket (and none should: the token is not a key to the album's files). The
-- preview answers the cover's thumbhash as well, the blurred placeholder of under 40 bytes that the row
-- carries, which the page paints where the thumbnail would be.

drop function public.invite_preview(text);
create function public.invite_preview(p_token text)
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
           coalesce(cv.thumb_key, nw.thumb_key),
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

revoke all on function public.invite_preview(text) from public, anon;
grant execute on function public.invite_preview(text) to authenticated, service_role;
