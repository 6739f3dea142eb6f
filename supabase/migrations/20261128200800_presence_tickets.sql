-- [Note: Who is here is vouched for by the database]
-- Realtime lets a member of an album track presence and send upload progress on `album:{id}`, but not with
-- what identity: the payload is whatever the sender writes, and Realtime's authorization is decided per
-- topic, never per message. A contributor showed themself as the owner and sent "Owner is adding 12 photos".
-- So a member's presence and progress now carry a ticket from presence_ticket: their own user id, a day's
-- expiry and an HMAC over both and the album, under a key only the database holds. Others show a viewer or a
-- progress only once presence_people has checked its ticket, and take the person's id and display name from
-- that answer, never from the message. A ticket of someone who has since left the album is no longer vouched for.

create table private.presence_key (
  id boolean primary key default true check (id),
  secret bytea not null default extensions.gen_random_bytes(32)
);
alter table private.presence_key enable row level security;
insert into private.presence_key default values;

create function private.presence_mac(p_album_id uuid, p_user_id uuid, p_expires bigint) returns text
language sql stable security definer set search_path = '' as $$
  select pg_catalog.rtrim(pg_catalog.translate(pg_catalog.encode(extensions.hmac(
    pg_catalog.convert_to(p_album_id::text || ':' || p_user_id::text || ':' || p_expires::text, 'UTF8'),
    (select k.secret from private.presence_key k), 'sha256'), 'base64'), '+/', '-_'), '=')
$$;

-- The caller's ticket for an album they are a member of: `{user id}.{expiry, unix seconds}.{mac}`.
create function public.presence_ticket(p_album_id uuid) returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_expires bigint := pg_catalog.floor(extract(epoch from now()))::bigint + 86400;
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  return v_uid::text || '.' || v_expires::text || '.' || private.presence_mac(p_album_id, v_uid, v_expires);
end $$;

-- For a member of the album: who each ticket vouches for (unexpired, its holder still a member), with the
-- display name they have now. Tickets that vouch for no one are left out.
create function public.presence_people(p_album_id uuid, p_tickets text[])
returns table (ticket text, user_id uuid, display_name text)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_role(p_album_id, array['owner', 'editor', 'contributor', 'viewer']);
  if p_tickets is null or pg_catalog.cardinality(p_tickets) > 200 then
    perform private.fail('validation/invalid', 'Check 0 to 200 tickets at a time.');
  end if;
  return query
    with parsed as (
      select t as ticket, private.uuid_or_null(pg_catalog.split_part(t, '.', 1)) as uid,
             case when pg_catalog.split_part(t, '.', 2) ~ '^[0-9]{1,12}$' then pg_catalog.split_part(t, '.', 2)::bigint end as expires,
             pg_catalog.split_part(t, '.', 3) as mac
      from pg_catalog.unnest(p_tickets) as u(t)
      where pg_catalog.length(t) <= 200
    )
    select p.ticket, p.uid, pr.display_name
    from parsed p
    join public.album_members m on m.album_id = p_album_id and m.user_id = p.uid
    join public.profiles pr on pr.id = p.uid
    where p.expires > extract(epoch from now())
      and p.mac = private.presence_mac(p_album_id, p.uid, p.expires);
end $$;

revoke all on function private.presence_mac(uuid, uuid, bigint) from public, anon, authenticated;
revoke all on function public.presence_ticket(uuid), public.presence_people(uuid, text[]) from public, anon;
grant execute on function public.presence_ticket(uuid), public.presence_people(uuid, text[]) to authenticated;
