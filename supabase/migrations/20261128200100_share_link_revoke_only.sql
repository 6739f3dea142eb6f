-- A revoked link stays revoked, and a link's time and views are those it was made with. Before, owners and
-- editors could update share_links directly: `set revoked_at = null` opened a revoked link again, with its old
-- visits, `set expires_at = null` made a link meant to end last forever (PRODUCT.md §5: none only when set
-- explicitly, at creation), and `set max_views = null` would open a used-up one again. Invitations were closed to
-- this already (20261123200000_invitations.sql).
-- Managing a link directly is still: revoking it (once; the time is the database's, so it cannot be back-dated),
-- and its label, downloads, guest uploads and guest limits. Its expiry is no longer a column a member writes, and
-- its view limit can only come down.
revoke update on public.share_links from authenticated;
grant update (label, allow_download, allow_guest_upload, max_views, guest_max_files, guest_max_bytes, revoked_at)
  on public.share_links to authenticated;

create function private.share_link_no_reopening() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.revoked_at is distinct from old.revoked_at then
    if old.revoked_at is not null then
      raise exception using errcode = 'P0001', message = 'share/revoked', detail = 'A revoked link cannot be opened again; make a new one.';
    end if;
    new.revoked_at := pg_catalog.now();
  end if;
  if old.max_views is not null and (new.max_views is null or new.max_views > old.max_views) then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A link''s view limit can only come down; make a new link for more views.';
  end if;
  return new;
end $$;
revoke all on function private.share_link_no_reopening() from public, anon, authenticated;

create trigger share_link_no_reopening before update on public.share_links
  for each row execute function private.share_link_no_reopening();
