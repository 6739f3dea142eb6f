-- [Note: Photos filed by the clock where they were taken] (src/lib/item-metadata.ts)
-- A photo taken at 21:30 in New York on 31 January belongs to 31 January, as its camera showed it, though in UTC
-- it was taken on 1 February. `sort_taken`, which every list sorts by and the month counts group by, was the
-- instant; it is now the capture time moved by its offset (`metadata.takenOffset`, minutes east of UTC, when the
-- file gave one) and read as if it were UTC, as the app files it. A capture time without an offset is already
-- kept as its clock read, so it is unchanged; so is an item without one (the date added).
-- The expression uses only immutable steps (`timestamptz + interval` is not: it depends on the session's zone),
-- so the column stays generated and stored, and follows every edit of the date or its offset.
-- A generated column's expression cannot be altered before PostgreSQL 17: the column is made again, with the
-- indexes on it and the view that selects it.

drop view public.my_favorite_items;
alter table public.items drop column sort_taken;
alter table public.items add column sort_taken timestamptz generated always as (
  coalesce(
    ((taken_at at time zone 'UTC')
      + pg_catalog.make_interval(mins => coalesce((metadata ->> 'takenOffset')::numeric::integer, 0))) at time zone 'UTC',
    created_at)
) stored;

create index items_album_taken_idx on public.items (album_id, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;
create index items_album_kind_taken_idx on public.items (album_id, kind, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;
create index items_album_uploader_taken_idx on public.items (album_id, uploader_id, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;

create view public.my_favorite_items with (security_invoker = true) as
  select i.*
  from public.favorites f
  join public.items i on i.album_id = f.album_id and i.id = f.item_id
  where f.user_id = (select auth.uid());
revoke all on public.my_favorite_items from anon, authenticated;
grant select on public.my_favorite_items to authenticated;
