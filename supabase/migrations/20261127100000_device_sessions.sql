-- Signed-in devices on /account (issue 12): each device row knows the Auth session it is signed in with, so
-- that one other device can be signed out from here, and a device signed out (from here, or by "sign out of
-- all other devices") leaves the list.
--
-- The session is the access token's `session_id` claim: it is stamped by touch_device, never sent by the
-- client, so a device row can only ever name the caller's own current session. Writes therefore go through
-- the functions below: clients keep only select on the table. Its own-rows policies stay, should a write
-- ever be granted again.
--
-- Signing a device out deletes its row in auth.sessions. GoTrue keeps a session's refresh tokens with an
-- `on delete cascade` to it, so the device's next refresh is refused ("Invalid Refresh Token: Refresh Token
-- Not Found") and supabase-js signs it out there. Its access token, being a signed JWT, stays valid until it
-- expires (the project's JWT expiry, an hour by default), as with GoTrue's own `signOut({ scope: 'others' })`.

alter table public.devices add column session_id uuid;

revoke insert, update, delete on public.devices from authenticated;

-- This browser is signed in now: its row is made or brought up to date, stamped with the caller's session
-- and the server's time. Rows of sessions that no longer exist are cleared on the way (signed out elsewhere),
-- as is an older row of this same session under another id (the browser's storage was cleared).
create function public.touch_device(p_id uuid, p_label text, p_kind text, p_installed boolean)
returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_session uuid := nullif((select auth.jwt()) ->> 'session_id', '')::uuid;
begin
  if p_id is null then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A device is named by its id.', hint = '{"field":"id"}';
  end if;
  if p_label is null or not private.is_clean_text(p_label, 120) then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A device label is 1 to 120 characters.', hint = '{"field":"label"}';
  end if;
  if p_kind is null or p_kind not in ('desktop', 'mobile', 'tablet') then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'A device is a desktop, a mobile or a tablet.', hint = '{"field":"kind"}';
  end if;

  delete from public.devices d
  where d.user_id = v_uid
    and d.session_id is not null
    and ((v_session is not null and d.session_id = v_session and d.id <> p_id)
         or not exists (select 1 from auth.sessions s where s.id = d.session_id));

  insert into public.devices as d (user_id, id, label, kind, installed_pwa, last_seen_at, session_id)
  values (v_uid, p_id, p_label, p_kind, coalesce(p_installed, false), now(), v_session)
  on conflict (user_id, id) do update
    set label = excluded.label, kind = excluded.kind, installed_pwa = excluded.installed_pwa,
        last_seen_at = excluded.last_seen_at, session_id = excluded.session_id;
end $$;

-- The caller's devices still signed in, the most recently seen first; `current` is the one asking.
create function public.list_devices()
returns table (id uuid, label text, kind text, installed_pwa boolean, last_seen_at timestamptz, current boolean)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_session uuid := nullif((select auth.jwt()) ->> 'session_id', '')::uuid;
begin
  return query
    select d.id, d.label, d.kind, d.installed_pwa, d.last_seen_at, coalesce(d.session_id = v_session, false)
    from public.devices d
    where d.user_id = v_uid
      and (d.session_id is null or exists (select 1 from auth.sessions s where s.id = d.session_id and s.user_id = v_uid))
    order by d.last_seen_at desc, d.id;
end $$;

-- Signs one of the caller's own devices out: its Auth session is deleted (its refresh token goes with it)
-- and its row removed. Another person's device id, or one already gone, changes nothing.
create function public.sign_out_device(p_id uuid)
returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_session uuid;
begin
  delete from public.devices d where d.user_id = v_uid and d.id = p_id returning d.session_id into v_session;
  if v_session is not null then
    delete from auth.sessions s where s.id = v_session and s.user_id = v_uid;
  end if;
end $$;

revoke all on function public.touch_device(uuid, text, text, boolean) from public, anon;
revoke all on function public.list_devices() from public, anon;
revoke all on function public.sign_out_device(uuid) from public, anon;
grant execute on function public.touch_device(uuid, text, text, boolean) to authenticated, service_role;
grant execute on function public.list_devices() to authenticated, service_role;
grant execute on function public.sign_out_device(uuid) to authenticated, service_role;
