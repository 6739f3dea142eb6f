-- Unread counts on the albums screen: when each member last opened each album, and how much happened there
-- since, by others.
--
-- [Note: Unread activity]
-- album_visits holds one row per member and album, written only by mark_album_seen when the album is opened,
-- and read only by its member: when someone last looked is nobody else's business, which is also why it is
-- not a column of album_members (whose changes every member hears). The row goes with the membership.
-- unread_counts() gives, for each of the caller's albums, the lines of activity by others since that time
-- (since joining, for an album never opened), counted up to 100 (the screen says "99+" from there). A line
-- that grows after it was seen (more photos from Ana in the same ten minutes) counts as unread again.

create table public.album_visits (
  album_id uuid not null,
  user_id uuid not null,
  seen_at timestamptz not null default now(),
  primary key (album_id, user_id),
  foreign key (album_id, user_id) references public.album_members (album_id, user_id) on delete cascade
);
alter table public.album_visits enable row level security;
revoke all on public.album_visits from anon, authenticated;
grant select on public.album_visits to authenticated;
create policy album_visits_select on public.album_visits for select to authenticated
  using (user_id = (select auth.uid()));

create function public.mark_album_seen(p_album_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  insert into public.album_visits as v (album_id, user_id, seen_at) values (p_album_id, v_uid, now())
  on conflict (album_id, user_id) do update set seen_at = excluded.seen_at;
end $$;

create function public.unread_counts() returns table (album_id uuid, unread integer)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
begin
  return query
    select m.album_id,
           (select pg_catalog.count(*)::int from (
              select 1 from public.activity ac
              where ac.album_id = m.album_id and ac.created_at > coalesce(v.seen_at, m.created_at)
                and ac.actor_id is distinct from v_uid
              -- In the index's order: without it the planner may scan the whole table for the first 100.
              order by ac.created_at desc
              limit 100) x)
    from public.album_members m
    join public.albums a on a.id = m.album_id and a.deleted_at is null
    left join public.album_visits v on v.album_id = m.album_id and v.user_id = m.user_id
    where m.user_id = v_uid;
end $$;

revoke all on function public.mark_album_seen(uuid), public.unread_counts() from public, anon;
grant execute on function public.mark_album_seen(uuid), public.unread_counts() to authenticated, service_role;
