-- The hashes behind share links and invites are for the SQL functions that check them, never for clients.
-- Owners and editors could read a link's password_hash (PBKDF2) and token_hash, and try passwords against the
-- hash offline, without the view limit or rate limit of opening the link. They now see every column but those;
-- a link's `has_password` says whether it asks for one. Readers must name their columns (`select *` is refused).
alter table public.share_links add column has_password boolean generated always as (password_hash is not null) stored;

revoke select on public.share_links from authenticated;
grant select (id, album_id, label, has_password, expires_at, allow_download, allow_guest_upload, max_views, view_count,
  created_by, created_at, revoked_at) on public.share_links to authenticated;

revoke select on public.invites from authenticated;
grant select (id, album_id, role, email, expires_at, max_uses, use_count, created_by, created_at, revoked_at)
  on public.invites to authenticated;
