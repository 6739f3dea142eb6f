-- An item's metadata is served to every member with every page of the album: 20 MiB of it was accepted.
-- It now holds only the fields the app knows (ItemMetadata in src/backend/ports.ts), with their types, at
-- most 16 KiB of JSON in all (as Postgres prints it) and at most 200 keywords of up to 100 characters
-- (PRODUCT.md §9). Unknown keys are refused rather than dropped: the app never sends them (it bounds the
-- metadata before sending, src/lib/item-metadata.ts), so one here is a client that does not follow the rules.
-- A check constraint holds it for every path: finalize_item and any direct update of the column.

create function private.is_item_metadata(p_metadata jsonb) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_metadata is not null
     and pg_catalog.jsonb_typeof(p_metadata) = 'object'
     and pg_catalog.octet_length(p_metadata::text) <= 16384
     and not exists (
       select 1 from pg_catalog.jsonb_each(p_metadata) e(k, v)
       where not (
            (e.k in ('cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label') and pg_catalog.jsonb_typeof(e.v) = 'string')
         or (e.k in ('exposureTime', 'fNumber', 'iso', 'focalLength', 'rating') and pg_catalog.jsonb_typeof(e.v) = 'number')
         or (e.k = 'notice' and e.v in ('"image/undecodable"'::jsonb, '"image/too-large"'::jsonb))
         or (e.k = 'keywords' and pg_catalog.jsonb_typeof(e.v) = 'array' and pg_catalog.jsonb_array_length(e.v) <= 200
             and not exists (select 1 from pg_catalog.jsonb_array_elements(e.v) w(x)
                             where pg_catalog.jsonb_typeof(w.x) <> 'string' or pg_catalog.char_length(w.x #>> '{}') > 100))))
$$;
revoke all on function private.is_item_metadata(jsonb) from public, anon;
grant execute on function private.is_item_metadata(jsonb) to authenticated, service_role;

-- Rows written before the bound keep what fits of it: known fields of the right type, the first 200
-- keywords cut to 100 characters; metadata still too large after that is emptied.
create function private.bounded_item_metadata(p_metadata jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  with kept as (
    select coalesce(pg_catalog.jsonb_object_agg(e.k, case when e.k = 'keywords' then (
             select coalesce(pg_catalog.jsonb_agg(pg_catalog.left(w.x #>> '{}', 100) order by w.n), '[]'::jsonb)
             from pg_catalog.jsonb_array_elements(e.v) with ordinality w(x, n)
             where w.n <= 200 and pg_catalog.jsonb_typeof(w.x) = 'string') else e.v end), '{}'::jsonb) as m
    from pg_catalog.jsonb_each(case when pg_catalog.jsonb_typeof(p_metadata) = 'object' then p_metadata else '{}'::jsonb end) e(k, v)
    where (e.k in ('cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label') and pg_catalog.jsonb_typeof(e.v) = 'string')
       or (e.k in ('exposureTime', 'fNumber', 'iso', 'focalLength', 'rating') and pg_catalog.jsonb_typeof(e.v) = 'number')
       or (e.k = 'notice' and e.v in ('"image/undecodable"'::jsonb, '"image/too-large"'::jsonb))
       or (e.k = 'keywords' and pg_catalog.jsonb_typeof(e.v) = 'array')
  )
  select case when private.is_item_metadata(kept.m) then kept.m else '{}'::jsonb end from kept
$$;
revoke all on function private.bounded_item_metadata(jsonb) from public, anon, authenticated;

update public.items set metadata = private.bounded_item_metadata(metadata) where not private.is_item_metadata(metadata);

alter table public.items add constraint items_metadata_bounded check (private.is_item_metadata(metadata));

create or replace function public.finalize_item(p_album_id uuid, p_item_id uuid, p_input jsonb) returns setof public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_item public.items;
  v_width int;
  v_height int;
  v_duration bigint;
  v_taken timestamptz;
  v_base text;
  v_metadata jsonb;
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor']);
  select * into v_item from public.items i
  where i.id = p_item_id and i.album_id = p_album_id and i.uploader_id = v_uid
  for update;
  if v_item.id is null then
    perform private.fail('item/not-found', 'This item is not one of your uploads in this album.');
  end if;
  if v_item.status = 'ready' then
    -- A repeated finalize (the response was lost) changes nothing.
    return query select * from public.items i where i.id = p_item_id;
    return;
  end if;
  if v_item.status <> 'uploading' then
    perform private.fail('validation/invalid', 'This upload was marked failed; reserve it again first.');
  end if;
  if p_input is null or pg_catalog.jsonb_typeof(p_input) <> 'object'
     or coalesce(p_input ->> 'sha256', '') !~ '^[0-9a-f]{64}$'
     or (p_input ? 'metadata' and pg_catalog.jsonb_typeof(p_input -> 'metadata') not in ('object', 'null')) then
    perform private.fail('validation/invalid', 'The upload needs its sha-256 and an object of metadata.');
  end if;
  v_metadata := coalesce(nullif(p_input -> 'metadata', 'null'::jsonb), '{}'::jsonb);
  if not private.is_item_metadata(v_metadata) then
    raise exception using errcode = 'P0001', message = 'validation/invalid',
      detail = 'Metadata holds only known fields, at most 16 KiB in all and 200 keywords of up to 100 characters.',
      hint = '{"field":"metadata"}';
  end if;
  begin
    v_width := (p_input ->> 'width')::int;
    v_height := (p_input ->> 'height')::int;
    v_duration := (p_input ->> 'duration_ms')::bigint;
    v_taken := (p_input ->> 'taken_at')::timestamptz;
  exception when others then
    perform private.fail('validation/invalid', 'Width, height, duration and date must be numbers and a timestamp.');
  end;
  v_base := 'albums/' || p_album_id || '/' || p_item_id || '/';
  update public.items set
    status = 'ready',
    sha256 = p_input ->> 'sha256',
    width = v_width,
    height = v_height,
    duration_ms = v_duration,
    taken_at = v_taken,
    thumbhash = p_input ->> 'thumbhash',
    metadata = v_metadata,
    preview_key = case when coalesce((p_input ->> 'has_preview')::boolean, false)
                       then v_base || case when v_item.kind = 'video' then 'poster.webp' else 'preview.webp' end end,
    thumb_key = case when coalesce((p_input ->> 'has_thumb')::boolean, false) then v_base || 'thumb.webp' end
  where id = p_item_id;
  perform private.record_activity(p_album_id, 'added_items', 1, p_item_id);
  return query select * from public.items i where i.id = p_item_id;
end $$;
