-- The album's choice about location in originals, made by its owner (PRODUCT.md §6: "keep/remove location" is
-- the owner's, like deleting the album). update_album takes `keep_location` (true or false) from the owner
-- only: an editor may rename the album and choose its cover, but asking for keep_location, alone or beside
-- those, is album/forbidden and changes nothing. albums grants no UPDATE to clients, so this is the only way.
-- album_summaries gains the column at its end so every member's screens say which applies.

create or replace view public.album_summaries with (security_invoker = true) as
select a.id, a.owner_id, a.title, a.description, a.cover_item_id, a.item_count, a.bytes_total,
       a.created_at, a.updated_at, a.deleted_at,
       m.role,
       coalesce(cv.thumb_key, nw.thumb_key) as cover_thumb_key,
       case when cv.id is not null then cv.thumbhash else nw.thumbhash end as cover_thumbhash,
       a.keep_location
from public.albums a
join public.album_members m on m.album_id = a.id and m.user_id = (select auth.uid())
left join public.items cv
  on cv.album_id = a.id and cv.id = a.cover_item_id and cv.status = 'ready' and cv.deleted_at is null
left join lateral (
  select i.thumb_key, i.thumbhash
  from public.items i
  where i.album_id = a.id and i.status = 'ready' and i.deleted_at is null
    and i.kind in ('image', 'video') and i.thumb_key is not null
  order by i.created_at desc, i.id desc
  limit 1
) nw on cv.id is null
where a.deleted_at is null;

create or replace function public.update_album(p_album_id uuid, p_patch jsonb) returns setof public.album_summaries
language plpgsql security definer set search_path = '' as $$
declare
  v_key text;
  v_title text;
  v_description text;
  v_cover uuid;
begin
  perform private.require_role(p_album_id, array['owner', 'editor']);
  if p_patch is null or pg_catalog.jsonb_typeof(p_patch) <> 'object' then
    perform private.fail('validation/invalid', 'The change must be an object.');
  end if;
  for v_key in select pg_catalog.jsonb_object_keys(p_patch) loop
    if v_key not in ('title', 'description', 'cover_item_id', 'keep_location') then
      perform private.fail('validation/invalid', 'Only the title, description, cover and location choice can be changed.');
    end if;
  end loop;
  -- Checked before anything is written, so a patch that mixes allowed and refused changes changes nothing.
  if p_patch ? 'keep_location' then
    perform private.require_role(p_album_id, array['owner']);
    if pg_catalog.jsonb_typeof(p_patch -> 'keep_location') <> 'boolean' then
      raise exception using errcode = 'P0001', message = 'validation/invalid',
        detail = 'Keeping location is true or false.', hint = '{"field":"keepLocation"}';
    end if;
  end if;
  if p_patch ? 'title' then
    v_title := pg_catalog.btrim(coalesce(p_patch ->> 'title', ''));
    if not private.is_clean_text(v_title, 120) then
      perform private.fail('validation/invalid', 'A title needs 1 to 120 characters, without control characters.');
    end if;
    update public.albums set title = v_title where id = p_album_id;
  end if;
  if p_patch ? 'description' then
    v_description := coalesce(p_patch ->> 'description', '');
    if not private.is_free_text(v_description, 2000) then
      perform private.fail('validation/invalid', 'A description has at most 2,000 characters.');
    end if;
    update public.albums set description = v_description where id = p_album_id;
  end if;
  if p_patch ? 'cover_item_id' then
    if p_patch -> 'cover_item_id' = 'null'::jsonb then
      v_cover := null;
    else
      begin
        v_cover := (p_patch ->> 'cover_item_id')::uuid;
      exception when invalid_text_representation then
        perform private.fail('validation/invalid', 'The cover must be an item id.');
      end;
      if not exists (select 1 from public.items i where i.album_id = p_album_id and i.id = v_cover
                     and i.status = 'ready' and i.deleted_at is null) then
        perform private.fail('item/not-found', 'The cover must be an item of this album.');
      end if;
      if not exists (select 1 from public.items i where i.id = v_cover and i.kind in ('image', 'video')) then
        raise exception using errcode = 'P0001', message = 'validation/invalid',
          detail = 'The cover must be a photo or a video.', hint = '{"field":"coverItemId"}';
      end if;
    end if;
    update public.albums set cover_item_id = v_cover where id = p_album_id;
  end if;
  if p_patch ? 'keep_location' then
    update public.albums set keep_location = (p_patch ->> 'keep_location')::boolean where id = p_album_id;
  end if;
  return query select * from public.album_summaries s where s.id = p_album_id;
end $$;
