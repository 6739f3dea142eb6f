-- [Note: An upload is finished only once its original is stored]
-- finalize_item took the caller's word that the original was in the bucket: three reserved rows finished with
-- nothing uploaded made an album "64 GB", and their tiles had nothing behind them. An item now becomes ready
-- only when its original is stored at the size it was reserved at, by whoever or whatever finishes it:
--   - on Supabase Storage, the storage server's own row in storage.objects says so (its metadata.size);
--   - on any other S3 provider, the functions that hold the bucket's credentials look (HEAD) and record what
--     they found here: storage-sign when a member's upload has sent its last byte, share-upload when a guest
--     finishes. No one else writes this table.
-- Nothing there: `upload/interrupted` (send it, then finish); another size: `upload/integrity`.

create table private.stored_originals (
  item_id uuid primary key references public.items (id) on delete cascade,
  bytes bigint not null check (bytes >= 0),
  recorded_at timestamptz not null default now()
);
alter table private.stored_originals enable row level security;

-- The size of an item's original in the bucket, as far as the database knows; null when it knows of none.
create function private.stored_size(p_item_id uuid, p_key text) returns bigint
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select (o.metadata ->> 'size')::bigint from storage.objects o
     where o.bucket_id = 'shoebox' and o.name = p_key and o.metadata ? 'size'
     order by o.updated_at desc nulls last limit 1),
    (select s.bytes from private.stored_originals s where s.item_id = p_item_id))
$$;

-- What a function found in the bucket for an item still uploading (a later upload of it replaces the size).
create function private.record_stored(p_item_id uuid, p_bytes bigint) returns void
language sql security definer set search_path = '' as $$
  insert into private.stored_originals (item_id, bytes)
  select i.id, p_bytes from public.items i where i.id = p_item_id and i.status = 'uploading'
  on conflict on constraint stored_originals_pkey do update set bytes = excluded.bytes, recorded_at = now()
$$;

create function private.ready_needs_original() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_size bigint := private.stored_size(new.id, new.original_key);
begin
  if v_size is null then
    perform private.fail('upload/interrupted', 'The file has not reached the storage yet: send it, then finish.');
  end if;
  if v_size <> new.bytes then
    perform private.fail('upload/integrity',
      pg_catalog.format('The stored file has %s bytes where %s were reserved: send it again.', v_size, new.bytes));
  end if;
  return new;
end $$;

create trigger items_ready_needs_original before update of status on public.items
  for each row when (old.status = 'uploading' and new.status = 'ready')
  execute function private.ready_needs_original();

revoke all on function private.stored_size(uuid, text), private.record_stored(uuid, bigint), private.ready_needs_original()
from public, anon, authenticated;
