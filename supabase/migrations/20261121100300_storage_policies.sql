-- Row Level Security on the bucket's objects (Supabase Storage, including its S3 endpoint with the
-- user's session). Keys are `albums/{album_id}/{item_id}/original|preview.webp|thumb.webp|poster.webp`.
--   read:   any member of the album;
--   write:  only under an item the caller reserved and has not finished (status `uploading`);
--   delete: owner and editor any item's objects, a contributor their own item's.
-- Other S3 providers never see these rules: there the storage-sign edge function checks membership.

insert into storage.buckets (id, name, public) values ('shoebox', 'shoebox', false)
on conflict (id) do nothing;

-- A key segment as a uuid, or null: a malformed key must fail the policy, not the query.
create function private.uuid_or_null(p_text text) returns uuid
language sql immutable parallel safe set search_path = '' as $$
  select case when p_text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then p_text::uuid end
$$;
revoke all on function private.uuid_or_null(text) from public, anon;
grant execute on function private.uuid_or_null(text) to authenticated;

create policy shoebox_objects_select on storage.objects for select to authenticated
  using (bucket_id = 'shoebox'
         and (storage.foldername(name))[1] = 'albums'
         and private.uuid_or_null((storage.foldername(name))[2]) in (select private.my_album_ids()));

create policy shoebox_objects_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'shoebox'
              and (storage.foldername(name))[1] = 'albums'
              and pg_catalog.array_length(storage.foldername(name), 1) = 3
              and storage.filename(name) in ('original', 'preview.webp', 'thumb.webp', 'poster.webp')
              and exists (select 1 from public.items i
                          where i.id = private.uuid_or_null((storage.foldername(name))[3])
                            and i.album_id = private.uuid_or_null((storage.foldername(name))[2])
                            and i.uploader_id = (select auth.uid())
                            and i.status = 'uploading'
                            and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor']))));

create policy shoebox_objects_update on storage.objects for update to authenticated
  using (bucket_id = 'shoebox'
         and exists (select 1 from public.items i
                     where i.id = private.uuid_or_null((storage.foldername(name))[3])
                       and i.album_id = private.uuid_or_null((storage.foldername(name))[2])
                       and i.uploader_id = (select auth.uid())
                       and i.status = 'uploading'
                       and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor']))))
  with check (bucket_id = 'shoebox'
              and (storage.foldername(name))[1] = 'albums'
              and pg_catalog.array_length(storage.foldername(name), 1) = 3
              and storage.filename(name) in ('original', 'preview.webp', 'thumb.webp', 'poster.webp')
              and exists (select 1 from public.items i
                          where i.id = private.uuid_or_null((storage.foldername(name))[3])
                            and i.album_id = private.uuid_or_null((storage.foldername(name))[2])
                            and i.uploader_id = (select auth.uid())
                            and i.status = 'uploading'
                            and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor']))));

create policy shoebox_objects_delete on storage.objects for delete to authenticated
  using (bucket_id = 'shoebox'
         and (storage.foldername(name))[1] = 'albums'
         and (private.uuid_or_null((storage.foldername(name))[2]) in (select private.my_album_ids(array['owner', 'editor']))
              or exists (select 1 from public.items i
                         where i.id = private.uuid_or_null((storage.foldername(name))[3])
                           and i.album_id = private.uuid_or_null((storage.foldername(name))[2])
                           and i.uploader_id = (select auth.uid())
                           and i.album_id in (select private.my_album_ids(array['owner', 'editor', 'contributor'])))));

-- ListParts answers only with rows the caller may read; the storage server writes them itself.
create policy shoebox_multipart_uploads_select on storage.s3_multipart_uploads for select to authenticated
  using (bucket_id = 'shoebox' and owner_id = (select auth.uid())::text);
create policy shoebox_multipart_parts_select on storage.s3_multipart_uploads_parts for select to authenticated
  using (bucket_id = 'shoebox' and owner_id = (select auth.uid())::text);
