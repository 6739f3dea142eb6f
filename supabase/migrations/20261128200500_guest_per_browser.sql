-- [Note: A guest is a browser]
-- A link's guest limits (guest_max_files, guest_max_bytes) are what one person may add. They were counted per
-- join, and every join made a new guest with a fresh allowance: a link set to 1 file per guest took 5 files
-- through 5 joins from one visit. Now a guest remembers the browser it joined from (the visitor id share-open
-- counted the visit under, hashed), and the limits count everything the guests of that browser on that link
-- hold together. A second join from the same browser gets a new token and name, not a new allowance; another
-- browser is another guest, and opening the link from another browser counts a view (and meets the link's view
-- limit). Guests who joined before this keep their own allowance.

alter table public.share_guests add column visitor_hash text check (visitor_hash is null or visitor_hash ~ '^[0-9a-f]{64}$');
create index share_guests_visitor_idx on public.share_guests (link_id, visitor_hash) where visitor_hash is not null;

drop function private.guest_join(uuid, text);
create function private.guest_join(p_link_id uuid, p_name text, p_visitor_hash text, out guest_id uuid, out token text)
language plpgsql security definer set search_path = '' as $$
declare
  v_name text := pg_catalog.btrim(coalesce(p_name, ''));
  v_token record;
begin
  perform private.guest_link(p_link_id);
  if not private.is_clean_text(v_name, 60) or pg_catalog.char_length(v_name) < 1 then
    perform private.fail('validation/invalid', 'A name has 1 to 60 characters.');
  end if;
  -- One link's joins are decided one at a time, so that the cap holds.
  perform 1 from public.share_links l where l.id = p_link_id for update;
  if (select pg_catalog.count(*) from public.share_guests g where g.link_id = p_link_id) >= 1000 then
    perform private.fail('upload/quota-exceeded', 'This link has as many guests as it takes.');
  end if;
  v_token := private.new_token();
  insert into public.share_guests (link_id, token_hash, name, visitor_hash) values (p_link_id, v_token.token_hash, v_name, p_visitor_hash)
  returning id into guest_id;
  token := v_token.token;
end $$;

-- How much a guest holds: every item that they, or another guest of the same browser on the link, added and
-- that still exists, finished or not.
create or replace function private.guest_usage(p_guest_id uuid, out used_files bigint, out used_bytes bigint)
language sql stable security definer set search_path = '' as $$
  select pg_catalog.count(*), coalesce(pg_catalog.sum(i.bytes), 0)::bigint
  from public.share_guest_items gi join public.items i on i.id = gi.item_id
  where gi.guest_id in (
    select other.id from public.share_guests g
    join public.share_guests other
      on other.link_id = g.link_id and (other.id = g.id or (g.visitor_hash is not null and other.visitor_hash = g.visitor_hash))
    where g.id = p_guest_id)
$$;

revoke all on function private.guest_join(uuid, text, text), private.guest_usage(uuid) from public, anon, authenticated;
