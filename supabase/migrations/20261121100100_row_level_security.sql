-- Row Level Security per the role table of PRODUCT.md §6.
--
-- [Note: Membership checks]
-- Every policy that depends on a role asks one helper, private.my_album_ids(roles): the albums the
-- caller belongs to (optionally with one of `roles`), excluding deleted albums. It is `security
-- definer` so that the album_members policies can use it without recursing into themselves, and it
-- takes no column argument, so `album_id in (select private.my_album_ids(...))` is evaluated once per
-- query (an InitPlan or hashed SubPlan) rather than once per row: the album page with 100,000 items
-- stays an index scan. Policies read the caller with `(select auth.uid())` for the same reason.
-- A non-member sees no row of an album: not the album, its members, items or links.
--
-- Multi-step writes (creating an album, reserving and finalizing items, trash and restore, roles,
-- invites, share links) go through the SQL functions of the next migration; direct table writes are
-- limited to single-row edits that a policy can judge on its own, with column grants so that no
-- caller can touch counters, keys, statuses or ownership.

create function private.my_album_ids(p_roles text[] default null) returns setof uuid
language sql stable security definer set search_path = '' as $$
  select m.album_id
  from public.album_members m
  join public.albums a on a.id = m.album_id
  where m.user_id = (select auth.uid())
    and a.deleted_at is null
    and (p_roles is null or m.role = any (p_roles))
$$;

revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;
revoke all on all functions in schema private from public, anon, authenticated;
grant execute on function private.my_album_ids(text[]) to authenticated;
-- Check constraints call these as the writing role.
grant execute on function private.is_clean_text(text, int), private.is_free_text(text, int) to authenticated, service_role;

-- Nothing in `public` is readable or writable by default: each table grants exactly what its policies judge.
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on functions from public, anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;
revoke all on all tables in schema public from anon, authenticated;
revoke all on all functions in schema public from public, anon, authenticated;

alter table public.profiles enable row level security;
alter table public.albums enable row level security;
alter table public.album_members enable row level security;
alter table public.invites enable row level security;
alter table public.items enable row level security;
alter table public.comments enable row level security;
alter table public.favorites enable row level security;
alter table public.share_links enable row level security;
alter table public.devices enable row level security;
alter table public.activity enable row level security;

-- profiles: your own, and the people you share an album with.
grant select on public.profiles to authenticated;
grant update (display_name, avatar_key) on public.profiles to authenticated;
create policy profiles_select on public.profiles for select to authenticated
  using (id = (select auth.uid())
         or id in (select m.user_id from public.album_members m where m.album_id in (select private.my_album_ids())));
create policy profiles_update on public.profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- albums: members read; owner and editor rename (title, description, cover). Creation and deletion are functions.
grant select on public.albums to authenticated;
grant update (title, description, cover_item_id) on public.albums to authenticated;
create policy albums_select on public.albums for select to authenticated
  using (id in (select private.my_album_ids()));
create policy albums_update on public.albums for update to authenticated
  using (id in (select private.my_album_ids(array['owner', 'editor'])))
  with check (id in (select private.my_album_ids(array['owner', 'editor'])));

-- album_members: members see who else is in; the owner removes others; anyone but the owner may leave.
grant select, delete on public.album_members to authenticated;
create policy album_members_select on public.album_members for select to authenticated
  using (album_id in (select private.my_album_ids()));
create policy album_members_delete on public.album_members for delete to authenticated
  using (role <> 'owner'
         and (user_id = (select auth.uid()) or album_id in (select private.my_album_ids(array['owner']))));

-- invites: the owner's business only (tokens are created by create_invite; only their hashes are stored).
grant select, delete on public.invites to authenticated;
grant update (revoked_at) on public.invites to authenticated;
create policy invites_select on public.invites for select to authenticated
  using (album_id in (select private.my_album_ids(array['owner'])));
create policy invites_update on public.invites for update to authenticated
  using (album_id in (select private.my_album_ids(array['owner'])))
  with check (album_id in (select private.my_album_ids(array['owner'])));
create policy invites_delete on public.invites for delete to authenticated
  using (album_id in (select private.my_album_ids(array['owner'])));

-- items: members see ready items; an uploader also sees their own uploading/failed rows.
-- Owner and editor edit and delete any item; a contributor only their own.
grant select, delete on public.items to authenticated;
grant update (filename, taken_at, metadata) on public.items to authenticated;
create policy items_select on public.items for select to authenticated
  using (album_id in (select private.my_album_ids())
         and (status = 'ready' or uploader_id = (select auth.uid())));
create policy items_update on public.items for update to authenticated
  using (album_id in (select private.my_album_ids(array['owner', 'editor']))
         or (uploader_id = (select auth.uid()) and album_id in (select private.my_album_ids(array['contributor']))))
  with check (album_id in (select private.my_album_ids(array['owner', 'editor']))
         or (uploader_id = (select auth.uid()) and album_id in (select private.my_album_ids(array['contributor']))));
create policy items_delete on public.items for delete to authenticated
  using (album_id in (select private.my_album_ids(array['owner', 'editor']))
         or (uploader_id = (select auth.uid()) and album_id in (select private.my_album_ids(array['contributor']))));

-- comments: every member reads and writes as themselves; authors edit; authors, owner and editor delete.
alter table public.comments alter column author_id set default auth.uid();
grant select, delete on public.comments to authenticated;
grant insert (item_id, album_id, author_id, body) on public.comments to authenticated;
grant update (body, edited_at, deleted_at) on public.comments to authenticated;
create policy comments_select on public.comments for select to authenticated
  using (album_id in (select private.my_album_ids()));
create policy comments_insert on public.comments for insert to authenticated
  with check (author_id = (select auth.uid()) and album_id in (select private.my_album_ids()));
create policy comments_update on public.comments for update to authenticated
  using (author_id = (select auth.uid()) and album_id in (select private.my_album_ids()))
  with check (author_id = (select auth.uid()) and album_id in (select private.my_album_ids()));
create policy comments_delete on public.comments for delete to authenticated
  using (author_id = (select auth.uid()) or album_id in (select private.my_album_ids(array['owner', 'editor'])));

-- favorites: every member sees them; each marks and unmarks their own.
alter table public.favorites alter column user_id set default auth.uid();
grant select, delete on public.favorites to authenticated;
grant insert (item_id, album_id, user_id) on public.favorites to authenticated;
create policy favorites_select on public.favorites for select to authenticated
  using (album_id in (select private.my_album_ids()));
create policy favorites_insert on public.favorites for insert to authenticated
  with check (user_id = (select auth.uid()) and album_id in (select private.my_album_ids()));
create policy favorites_delete on public.favorites for delete to authenticated
  using (user_id = (select auth.uid()));

-- share_links: owner and editor manage them (created by create_share_link; only hashes are stored).
grant select, delete on public.share_links to authenticated;
grant update (label, expires_at, allow_download, allow_guest_upload, max_views, revoked_at) on public.share_links to authenticated;
create policy share_links_select on public.share_links for select to authenticated
  using (album_id in (select private.my_album_ids(array['owner', 'editor'])));
create policy share_links_update on public.share_links for update to authenticated
  using (album_id in (select private.my_album_ids(array['owner', 'editor'])))
  with check (album_id in (select private.my_album_ids(array['owner', 'editor'])));
create policy share_links_delete on public.share_links for delete to authenticated
  using (album_id in (select private.my_album_ids(array['owner', 'editor'])));

-- devices: each user's own list of signed-in devices.
alter table public.devices alter column user_id set default auth.uid();
grant select, insert, delete on public.devices to authenticated;
grant update (label, kind, installed_pwa, last_seen_at) on public.devices to authenticated;
create policy devices_select on public.devices for select to authenticated
  using (user_id = (select auth.uid()));
create policy devices_insert on public.devices for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy devices_update on public.devices for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy devices_delete on public.devices for delete to authenticated
  using (user_id = (select auth.uid()));

-- activity: members read their albums' activity; rows are written by functions and triggers.
grant select on public.activity to authenticated;
create policy activity_select on public.activity for select to authenticated
  using (album_id in (select private.my_album_ids()));

-- Read models. security_invoker: the caller's own policies apply, never the view owner's.
create view public.album_summaries with (security_invoker = true) as
select a.id, a.owner_id, a.title, a.description, a.cover_item_id, a.item_count, a.bytes_total,
       a.created_at, a.updated_at, a.deleted_at,
       m.role,
       coalesce(cv.thumb_key, nw.thumb_key) as cover_thumb_key,
       case when cv.id is not null then cv.thumbhash else nw.thumbhash end as cover_thumbhash
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

create view public.activity_feed with (security_invoker = true) as
select ac.id, ac.album_id, al.title as album_title, ac.actor_id, coalesce(p.display_name, '') as actor_name,
       ac.verb, ac.subject, ac.count, ac.created_at
from public.activity ac
join public.albums al on al.id = ac.album_id
left join public.profiles p on p.id = ac.actor_id;

revoke all on public.album_summaries, public.activity_feed from anon, authenticated;
grant select on public.album_summaries, public.activity_feed to authenticated;
