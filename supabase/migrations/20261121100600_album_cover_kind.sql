-- An album's cover must be a photo or a video (PRODUCT.md §5): a PDF or other file has no picture to show.
-- The refusal names the field, so the form can point at it.
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
    if v_key not in ('title', 'description', 'cover_item_id') then
      perform private.fail('validation/invalid', 'Only the title, description and cover can be changed.');
    end if;
  end loop;
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
  return query select * from public.album_summaries s where s.id = p_album_id;
end $$;
