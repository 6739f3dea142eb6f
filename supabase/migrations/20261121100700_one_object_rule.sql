-- One statement of who may do what to an object in the bucket. The storage.objects policies (Supabase
-- Storage) and public.object_access (the storage-sign function, for other S3 providers) each spelled the
-- same rules out; both now ask private.object_allowed, so the two kinds of bucket cannot drift apart.
--   read:   any member of the album;
--   write:  only under an item the caller reserved and has not finished (status `uploading`), while the
--           caller is owner, editor or contributor, and only the four object names an item has;
--   delete: owner and editor any item's objects, a contributor their own item's.
-- `security invoker`: it runs as the caller, so auth.uid() is theirs and the lookups of public.items pass
-- through their own Row Level Security, as they did inside the policies.
create function private.object_allowed(p_name text, p_action text) returns boolean
language sql stable security invoker set search_path = '' as $$
  select coalesce(
    (storage.foldername(p_name))[1] = 'albums'
    and case p_action
      when 'read' then
        private.uuid_or_null((storage.foldername(p_name))[2]) in (select private.my_album_ids())
      when 'write' then
        pg_catalog.array_length(storage.foldername(p_name), 1) = 3
        and storage.filename(p_name) in ('original', 'preview.webp', 'thumb.webp', 'poster.webp')
        and exists (select 1 from public.items i
                    where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                      and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                      and i.uploader_id = (select auth.uid())
                      and i.status = 'uploading'
                      and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))
      when 'delete' then
        private.uuid_or_null((storage.foldername(p_name))[2]) in (select private.my_album_ids(array['owner', 'editor']))
        or exists (select 1 from public.items i
                   where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                     and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                     and i.uploader_id = (select auth.uid())
                     and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))
      else false
    end,
    false)
$$;
revoke all on function private.object_allowed(text, text) from public, anon;
grant execute on function private.object_allowed(text, text) to authenticated;

drop policy shoebox_objects_select on storage.objects;
drop policy shoebox_objects_insert on storage.objects;
drop policy shoebox_objects_update on storage.objects;
drop policy shoebox_objects_delete on storage.objects;

create policy shoebox_objects_select on storage.objects for select to authenticated
  using (bucket_id = 'shoebox' and private.object_allowed(name, 'read'));
create policy shoebox_objects_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'shoebox' and private.object_allowed(name, 'write'));
-- Rewriting an object is a write to both its old and its new name.
create policy shoebox_objects_update on storage.objects for update to authenticated
  using (bucket_id = 'shoebox' and private.object_allowed(name, 'write'))
  with check (bucket_id = 'shoebox' and private.object_allowed(name, 'write'));
create policy shoebox_objects_delete on storage.objects for delete to authenticated
  using (bucket_id = 'shoebox' and private.object_allowed(name, 'delete'));

create or replace function public.object_access(p_keys text[], p_action text)
returns table (key text, allowed boolean)
language plpgsql stable security invoker set search_path = '' as $$
begin
  if p_action is null or p_action not in ('read', 'write', 'delete') then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'The action is read, write or delete.';
  end if;
  if p_keys is null or pg_catalog.cardinality(p_keys) > 1000 then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'Ask about 0 to 1,000 keys at once.';
  end if;
  return query
  select u.k, private.object_allowed(u.k, p_action)
  from pg_catalog.unnest(p_keys) with ordinality as u(k, ord)
  order by u.ord;
end $$;
