-- What opening a public link needs on the server side (the share-open and share-links edge functions):
-- visits, views and wrong passwords, and a create_share_link that no longer stores what a client sends as
-- a password hash.
--
-- [Note: Link visitors in the database]
-- A link's visitor has no account: the share-open function resolves the token and talks to these tables
-- with the service role. No client role reads or writes them (RLS on, no grants, no policies). Rows are
-- small and short-lived; each write deletes the old ones of its kind, so no scheduled job is needed:
--   share_visits             the hashed visit token share-open hands out after the password, with its expiry
--                            (at most 12 hours, never past the link's own expiry);
--   share_link_views         one row per link, hashed visitor id and UTC day: a view is one browser's visit
--                            in one day, and share_links.view_count counts these rows as they are added;
--   share_password_failures  wrong passwords per link and hashed client address, for the 10-per-15-minutes
--                            limit.

create table public.share_visits (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  link_id uuid not null references public.share_links (id) on delete cascade,
  visitor_hash text not null check (visitor_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index share_visits_link_idx on public.share_visits (link_id);
create index share_visits_expires_idx on public.share_visits (expires_at);

create table public.share_link_views (
  link_id uuid not null references public.share_links (id) on delete cascade,
  visitor_hash text not null check (visitor_hash ~ '^[0-9a-f]{64}$'),
  day date not null,
  primary key (link_id, visitor_hash, day)
);
create index share_link_views_day_idx on public.share_link_views (day);

create table public.share_password_failures (
  id bigint generated always as identity primary key,
  link_id uuid not null references public.share_links (id) on delete cascade,
  client_hash text not null check (client_hash ~ '^[0-9a-f]{64}$'),
  at timestamptz not null default now()
);
create index share_password_failures_idx on public.share_password_failures (link_id, client_hash, at);
create index share_password_failures_at_idx on public.share_password_failures (at);

alter table public.share_visits enable row level security;
alter table public.share_link_views enable row level security;
alter table public.share_password_failures enable row level security;
-- Supabase grants the API roles everything in public by default: taken back from the clients' roles.
revoke all on public.share_visits, public.share_link_views, public.share_password_failures from public, anon, authenticated;
grant select, insert, update, delete on public.share_visits, public.share_link_views, public.share_password_failures to service_role;
grant select, update on public.share_links to service_role;

-- Options: label, expires_at (1 hour to 1 year ahead; null for none only when given explicitly; 30 days when
-- absent), allow_download (default true), allow_guest_upload (default false), max_views, guest_max_files,
-- guest_max_bytes. A password is not an option: the share-links function hashes it and sets password_hash in
-- the same transaction with its own rights, so a client calling this directly cannot store a string of its
-- choosing as a link's password hash (a weak or empty hash would let anyone in).
create or replace function public.create_share_link(p_album_id uuid, p_options jsonb) returns table (link_id uuid, token text)
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_opts jsonb := coalesce(p_options, '{}'::jsonb);
  v_token record;
  v_expires timestamptz;
  v_label text;
  v_key text;
begin
  perform private.require_role(p_album_id, array['owner', 'editor']);
  if pg_catalog.jsonb_typeof(v_opts) <> 'object' then
    perform private.fail('validation/invalid', 'Options must be an object.');
  end if;
  for v_key in select pg_catalog.jsonb_object_keys(v_opts) loop
    if v_key not in ('label', 'expires_at', 'allow_download', 'allow_guest_upload', 'max_views', 'guest_max_files', 'guest_max_bytes') then
      perform private.fail('validation/invalid', 'Unknown share link option.');
    end if;
  end loop;
  begin
    v_expires := case when v_opts ? 'expires_at' then (v_opts ->> 'expires_at')::timestamptz else now() + interval '30 days' end;
  exception when others then
    perform private.fail('validation/invalid', 'The expiry must be a timestamp.');
  end;
  if v_expires is not null and (v_expires < now() + interval '1 hour' or v_expires > now() + interval '1 year') then
    perform private.fail('validation/invalid', 'A link expires between one hour and one year from now.');
  end if;
  v_label := nullif(pg_catalog.btrim(coalesce(v_opts ->> 'label', '')), '');
  if v_label is not null and not private.is_clean_text(v_label, 120) then
    perform private.fail('validation/invalid', 'A label has at most 120 characters.');
  end if;
  v_token := private.new_token();
  begin
    insert into public.share_links (album_id, token_hash, label, expires_at, allow_download, allow_guest_upload,
                                    max_views, guest_max_files, guest_max_bytes, created_by)
    values (p_album_id, v_token.token_hash, v_label, v_expires,
            coalesce((v_opts ->> 'allow_download')::boolean, true),
            coalesce((v_opts ->> 'allow_guest_upload')::boolean, false),
            (v_opts ->> 'max_views')::int, (v_opts ->> 'guest_max_files')::int, (v_opts ->> 'guest_max_bytes')::bigint, v_uid)
    returning id into link_id;
  exception when check_violation or invalid_text_representation or numeric_value_out_of_range then
    perform private.fail('validation/invalid', 'These share link options are not valid.');
  end;
  token := v_token.token;
  return next;
end $$;

-- The album of a link the caller may manage (owner or editor), else `album/not-found` (also for a link that
-- does not exist) or `album/forbidden`: the share-links function asks this as the caller before it sets a
-- link's password with its own rights.
create function public.managed_share_link_album(p_link_id uuid) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  v_album uuid;
begin
  perform private.require_user();
  select l.album_id into v_album from public.share_links l where l.id = p_link_id;
  if v_album is null then
    perform private.fail('album/not-found', 'This link does not exist or you are not a member of its album.');
  end if;
  perform private.require_role(v_album, array['owner', 'editor']);
  return v_album;
end $$;
revoke all on function public.managed_share_link_album(uuid) from public, anon;
grant execute on function public.managed_share_link_album(uuid) to authenticated, service_role;
