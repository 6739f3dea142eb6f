-- Deleting bytes belongs to purge alone once an item is in its album. Before, `delete` let owners and editors
-- delete any object and a contributor their own item's, ready or not: on Supabase Storage (these policies) and
-- through storage-sign (public.object_access) a ready, untrashed original could be deleted while its row stayed
-- ready, skipping the trash and recording nothing.
-- Now a member deletes only the objects of their own upload that did not finish (status `uploading` or
-- `failed`): what a cancelled or failed upload leaves behind. Ready and trashed items' objects are deleted by
-- the purge function (service role) when the trash is emptied, and a guest's by share-upload.
create or replace function private.object_allowed(p_name text, p_action text) returns boolean
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
        pg_catalog.array_length(storage.foldername(p_name), 1) = 3
        and exists (select 1 from public.items i
                    where i.id = private.uuid_or_null((storage.foldername(p_name))[3])
                      and i.album_id = private.uuid_or_null((storage.foldername(p_name))[2])
                      and i.uploader_id = (select auth.uid())
                      and i.status in ('uploading', 'failed')
                      and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))
      else false
    end,
    false)
$$;
