-- Undoing a keyword's removal brings back its place in the keyword hierarchy: `edit_items` takes
-- `addKeywordPaths` (`Places|Portugal|Porto`), kept only where the path's last level is one of the item's keywords
-- after the edit, as src/lib/item-edit.ts applies it on this device. Both functions are restated whole with that
-- one change.

-- Whether `p` is a list of at most 200 keyword paths of at most 200 characters.
create function private.is_keyword_path_list(p jsonb) returns boolean
language sql immutable set search_path = '' as $$
  select pg_catalog.jsonb_typeof(p) = 'array' and pg_catalog.jsonb_array_length(p) <= 200
     and not exists (select 1 from pg_catalog.jsonb_array_elements(p) w(x)
                     where pg_catalog.jsonb_typeof(w.x) <> 'string' or pg_catalog.char_length(pg_catalog.btrim(w.x #>> '{}')) > 200)
$$;
revoke all on function private.is_keyword_path_list(jsonb) from public, anon, authenticated;

create or replace function private.edited_metadata(p_metadata jsonb, p_edit jsonb) returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  m jsonb := coalesce(p_metadata, '{}'::jsonb);
  k text;
  v_words jsonb;
begin
  foreach k in array array['title', 'description', 'label'] loop
    if p_edit ? k then
      if pg_catalog.jsonb_typeof(p_edit -> k) = 'string' and pg_catalog.btrim(p_edit ->> k) <> '' then
        m := pg_catalog.jsonb_set(m, array[k], pg_catalog.to_jsonb(pg_catalog.btrim(p_edit ->> k)));
      else
        m := m - k;
      end if;
    end if;
  end loop;
  if p_edit ? 'rating' then
    if pg_catalog.jsonb_typeof(p_edit -> 'rating') = 'number' and (p_edit ->> 'rating')::numeric between 1 and 5 then
      m := pg_catalog.jsonb_set(m, '{rating}', p_edit -> 'rating');
    else
      m := m - 'rating';
    end if;
  end if;
  if p_edit ? 'keywords' or p_edit ? 'addKeywords' or p_edit ? 'removeKeywords' or p_edit ? 'addKeywordPaths' then
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(w.word) order by w.first), '[]'::jsonb) into v_words
    from (
      select a.word, min(a.n) as first
      from (
        select pg_catalog.btrim(e.x) as word, e.n
        from pg_catalog.jsonb_array_elements_text(case when p_edit ? 'keywords' then p_edit -> 'keywords' else coalesce(m -> 'keywords', '[]'::jsonb) end)
             with ordinality e(x, n)
        union all
        select pg_catalog.btrim(e.x), 1000000 + e.n
        from pg_catalog.jsonb_array_elements_text(coalesce(p_edit -> 'addKeywords', '[]'::jsonb)) with ordinality e(x, n)
      ) a
      where a.word <> ''
        and not exists (select 1 from pg_catalog.jsonb_array_elements_text(coalesce(p_edit -> 'removeKeywords', '[]'::jsonb)) r(x)
                        where pg_catalog.btrim(r.x) = a.word)
      group by a.word
    ) w;
    if pg_catalog.jsonb_array_length(v_words) = 0 then
      m := m - 'keywords';
    else
      m := pg_catalog.jsonb_set(m, '{keywords}', v_words);
    end if;
    -- A keyword taken away takes its place in the hierarchy (keywordPaths, `Places|Portugal|Porto`) with it; a
    -- place given back (addKeywordPaths, at the end, once) stays only with its keyword.
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(p.x) order by p.first), '[]'::jsonb) into v_words
    from (
      select a.x, min(a.n) as first
      from (
        select pg_catalog.btrim(e.x) as x, e.n
        from pg_catalog.jsonb_array_elements_text(coalesce(m -> 'keywordPaths', '[]'::jsonb)) with ordinality e(x, n)
        union all
        select pg_catalog.btrim(e.x), 1000000 + e.n
        from pg_catalog.jsonb_array_elements_text(coalesce(p_edit -> 'addKeywordPaths', '[]'::jsonb)) with ordinality e(x, n)
      ) a
      where a.x <> '' and coalesce(m -> 'keywords', '[]'::jsonb) ? pg_catalog.regexp_replace(a.x, '^.*\|', '')
      group by a.x
    ) p;
    if pg_catalog.jsonb_array_length(v_words) = 0 then
      m := m - 'keywordPaths';
    else
      m := pg_catalog.jsonb_set(m, '{keywordPaths}', v_words);
    end if;
  end if;
  return m;
end $$;

create or replace function public.edit_items(p_album_id uuid, p_item_ids uuid[], p_edit jsonb) returns setof public.items
language plpgsql security definer set search_path = '' as $$
declare
  v_taken timestamptz;
  v_shift interval;
  k text;
begin
  -- The caller's role, 1 to 10,000 ready items of the album, a contributor's own only.
  perform private.check_item_batch(p_album_id, p_item_ids);
  -- Items in the trash are restored before they are edited.
  if exists (select 1 from public.items i where i.album_id = p_album_id and i.id = any (p_item_ids) and i.deleted_at is not null) then
    perform private.fail('item/not-found', 'Some of these items are in the trash.');
  end if;
  if p_edit is null or pg_catalog.jsonb_typeof(p_edit) <> 'object' or p_edit = '{}'::jsonb then
    perform private.fail('validation/invalid', 'Nothing to change.');
  end if;
  if exists (select 1 from pg_catalog.jsonb_object_keys(p_edit) e(k)
             where e.k not in ('title', 'description', 'label', 'rating', 'keywords', 'addKeywords', 'removeKeywords', 'addKeywordPaths', 'takenAt', 'shiftTakenAtMs')) then
    perform private.fail('validation/invalid', 'This detail cannot be edited.');
  end if;
  foreach k in array array['title', 'description', 'label'] loop
    if p_edit ? k and not (
         pg_catalog.jsonb_typeof(p_edit -> k) = 'null'
         or (pg_catalog.jsonb_typeof(p_edit -> k) = 'string'
             and pg_catalog.char_length(pg_catalog.btrim(p_edit ->> k)) <= case when k = 'label' then 200 else 2000 end)) then
      perform private.fail('validation/invalid', 'This ' || k || ' is too long.');
    end if;
  end loop;
  if p_edit ? 'rating' and not (
       pg_catalog.jsonb_typeof(p_edit -> 'rating') = 'null'
       or (pg_catalog.jsonb_typeof(p_edit -> 'rating') = 'number' and (p_edit ->> 'rating')::numeric in (0, 1, 2, 3, 4, 5))) then
    perform private.fail('validation/invalid', 'A rating is 0 to 5 stars.');
  end if;
  foreach k in array array['keywords', 'addKeywords', 'removeKeywords'] loop
    if p_edit ? k and not private.is_keyword_list(p_edit -> k) then
      perform private.fail('validation/invalid', 'At most 200 keywords of at most 100 characters.');
    end if;
  end loop;
  if p_edit ? 'addKeywordPaths' and not private.is_keyword_path_list(p_edit -> 'addKeywordPaths') then
    perform private.fail('validation/invalid', 'At most 200 keyword paths of at most 200 characters.');
  end if;
  if p_edit ? 'keywords' and (p_edit ? 'addKeywords' or p_edit ? 'removeKeywords') then
    perform private.fail('validation/invalid', 'Replace the keywords, or add and remove some, not both.');
  end if;
  if p_edit ? 'takenAt' and p_edit ? 'shiftTakenAtMs' then
    perform private.fail('validation/invalid', 'Set the date, or shift it, not both.');
  end if;
  if p_edit ? 'takenAt' and pg_catalog.jsonb_typeof(p_edit -> 'takenAt') <> 'null' then
    begin
      v_taken := (p_edit ->> 'takenAt')::timestamptz;
    exception when others then
      v_taken := null;
    end;
    if v_taken is null or pg_catalog.jsonb_typeof(p_edit -> 'takenAt') <> 'string' or not private.is_sortable_time(v_taken) then
      perform private.fail('validation/invalid', 'This is not a date.');
    end if;
  end if;
  if p_edit ? 'shiftTakenAtMs' then
    if pg_catalog.jsonb_typeof(p_edit -> 'shiftTakenAtMs') <> 'number'
       or (p_edit ->> 'shiftTakenAtMs')::numeric <> pg_catalog.trunc((p_edit ->> 'shiftTakenAtMs')::numeric)
       or pg_catalog.abs((p_edit ->> 'shiftTakenAtMs')::numeric) > 3162240000000 then
      perform private.fail('validation/invalid', 'Shift the date by at most 100 years.');
    end if;
    v_shift := pg_catalog.make_interval(secs => (p_edit ->> 'shiftTakenAtMs')::numeric / 1000);
  end if;
  if exists (select 1 from public.items i
             where i.album_id = p_album_id and i.id = any (p_item_ids)
               and not private.is_item_metadata(private.edited_metadata(i.metadata, p_edit))) then
    perform private.fail('validation/invalid', 'An item holds at most 200 keywords and 16 KiB of details.');
  end if;

  return query
  update public.items i set
    metadata = private.edited_metadata(i.metadata, p_edit),
    taken_at = case
      when p_edit ? 'takenAt' then v_taken
      -- A date shifted out of the sortable range stays as it was.
      when v_shift is not null and i.taken_at is not null and private.is_sortable_time(i.taken_at + v_shift) then i.taken_at + v_shift
      else i.taken_at
    end,
    edited_at = pg_catalog.now()
  where i.album_id = p_album_id and i.id = any (p_item_ids)
  returning i.*;
end $$;
