-- Shoebox schema: the entities of PRODUCT.md §3 with the validation rules of §5 as constraints.
-- The database is the authority; the app's own validation only mirrors these rules.

create extension if not exists pgcrypto with schema extensions;

-- Not exposed through the API: helpers used by policies and functions.
create schema if not exists private;

-- A display text: trimmed, non-empty, no control characters, at most `max_len` characters.
create function private.is_clean_text(p_text text, p_max_len int) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_text is not null
     and p_text = pg_catalog.btrim(p_text)
     and pg_catalog.char_length(p_text) between 1 and p_max_len
     and p_text !~ '[[:cntrl:]]'
$$;

-- Free text (descriptions, comments): line breaks and tabs allowed, other control characters not.
create function private.is_free_text(p_text text, p_max_len int) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_text is not null
     and pg_catalog.char_length(p_text) <= p_max_len
     and p_text !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'
$$;

-- profiles -----------------------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null check (private.is_clean_text(display_name, 60)),
  avatar_key text check (avatar_key is null or char_length(avatar_key) <= 1024),
  created_at timestamptz not null default now()
);

-- albums -------------------------------------------------------------------------------------------
create table public.albums (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (private.is_clean_text(title, 120)),
  description text not null default '' check (private.is_free_text(description, 2000)),
  cover_item_id uuid,
  item_count integer not null default 0 check (item_count >= 0 and item_count <= 1000000),
  bytes_total bigint not null default 0 check (bytes_total >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index albums_owner_id_idx on public.albums (owner_id);

-- album_members ------------------------------------------------------------------------------------
create table public.album_members (
  album_id uuid not null references public.albums (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null check (role in ('owner', 'editor', 'contributor', 'viewer')),
  added_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (album_id, user_id)
);
-- Membership checks look up (user_id, album_id); the album's member list uses the primary key.
create index album_members_user_id_idx on public.album_members (user_id, album_id) include (role);
create index album_members_added_by_idx on public.album_members (added_by);
-- Exactly one owner per album (the owner row is written with the album, in create_album).
create unique index album_members_one_owner_idx on public.album_members (album_id) where role = 'owner';

-- invites ------------------------------------------------------------------------------------------
create table public.invites (
  id uuid primary key default gen_random_uuid(),
  album_id uuid not null references public.albums (id) on delete cascade,
  role text not null check (role in ('editor', 'contributor', 'viewer')),
  -- hex sha-256 of the 128-bit token; the token itself is never stored.
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  email text check (email is null or (char_length(email) <= 320 and email ~ '^[^@[:space:]]+@[^@[:space:]]+$')),
  expires_at timestamptz not null default now() + interval '7 days',
  max_uses integer check (max_uses is null or max_uses > 0),
  use_count integer not null default 0 check (use_count >= 0),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index invites_album_id_idx on public.invites (album_id, created_at desc);
create index invites_created_by_idx on public.invites (created_by);

-- items --------------------------------------------------------------------------------------------
create table public.items (
  id uuid primary key,
  album_id uuid not null references public.albums (id) on delete cascade,
  uploader_id uuid references public.profiles (id) on delete set null,
  -- A guest's name when the item came through a share link with guest uploads on.
  guest_label text check (guest_label is null or private.is_clean_text(guest_label, 60)),
  kind text not null check (kind in ('image', 'video', 'file')),
  status text not null default 'uploading' check (status in ('uploading', 'ready', 'failed')),
  filename text not null check (char_length(filename) between 1 and 1024),
  mime text not null check (char_length(mime) between 1 and 255),
  bytes bigint not null check (bytes > 0 and bytes <= 21474836480),
  sha256 text check (sha256 is null or sha256 ~ '^[0-9a-f]{64}$'),
  width integer check (width is null or width > 0),
  height integer check (height is null or height > 0),
  duration_ms bigint check (duration_ms is null or duration_ms >= 0),
  taken_at timestamptz,
  original_key text not null,
  preview_key text,
  thumb_key text,
  thumbhash text check (thumbhash is null or char_length(thumbhash) <= 64),
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now(),
  deleted_at timestamptz,
  sort_taken timestamptz generated always as (coalesce(taken_at, created_at)) stored,
  -- Keys are derived from ids only, never from user-supplied names.
  check (original_key = 'albums/' || album_id || '/' || id || '/original'),
  check (preview_key is null or preview_key in ('albums/' || album_id || '/' || id || '/preview.webp',
                                                 'albums/' || album_id || '/' || id || '/poster.webp')),
  check (thumb_key is null or thumb_key = 'albums/' || album_id || '/' || id || '/thumb.webp'),
  check (status = 'ready' or deleted_at is null),
  unique (album_id, id)
);
-- The album page (sort 'taken' and 'added', newest first, keyset on id), its month counts and kind filter.
create index items_album_taken_idx on public.items (album_id, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;
create index items_album_added_idx on public.items (album_id, created_at desc, id desc)
  where status = 'ready' and deleted_at is null;
create index items_album_kind_taken_idx on public.items (album_id, kind, sort_taken desc, id desc)
  where status = 'ready' and deleted_at is null;
-- The trash view, and the purge of items trashed more than 30 days ago.
create index items_album_trash_idx on public.items (album_id, deleted_at desc, id desc)
  where deleted_at is not null;
create index items_trash_purge_idx on public.items (deleted_at) where deleted_at is not null;
-- The uploader's own unfinished rows (the policy reads uploader_id).
create index items_uploader_id_idx on public.items (uploader_id, album_id) where status <> 'ready';
create index items_uploader_all_idx on public.items (uploader_id);

alter table public.albums
  add constraint albums_cover_item_fk foreign key (id, cover_item_id)
  references public.items (album_id, id) on delete set null (cover_item_id);
create index albums_cover_item_idx on public.albums (cover_item_id, id);

-- comments -----------------------------------------------------------------------------------------
create table public.comments (
  id uuid primary key default gen_random_uuid(),
  item_id uuid not null,
  album_id uuid not null,
  author_id uuid references public.profiles (id) on delete set null,
  body text not null check (private.is_free_text(body, 2000) and char_length(btrim(body)) >= 1),
  created_at timestamptz not null default now(),
  edited_at timestamptz,
  deleted_at timestamptz,
  foreign key (album_id, item_id) references public.items (album_id, id) on delete cascade
);
create index comments_item_idx on public.comments (album_id, item_id, created_at);
create index comments_item_id_idx on public.comments (item_id);
create index comments_author_id_idx on public.comments (author_id);

-- favorites ----------------------------------------------------------------------------------------
create table public.favorites (
  item_id uuid not null,
  album_id uuid not null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (item_id, user_id),
  foreign key (album_id, item_id) references public.items (album_id, id) on delete cascade
);
create index favorites_album_idx on public.favorites (album_id, item_id);
create index favorites_user_id_idx on public.favorites (user_id, album_id);

-- share_links --------------------------------------------------------------------------------------
create table public.share_links (
  id uuid primary key default gen_random_uuid(),
  album_id uuid not null references public.albums (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  label text check (label is null or private.is_clean_text(label, 120)),
  -- PBKDF2-SHA-256 string written by the share-open edge function's hashing; never the password.
  password_hash text check (password_hash is null or char_length(password_hash) between 16 and 512),
  expires_at timestamptz,
  allow_download boolean not null default true,
  allow_guest_upload boolean not null default false,
  max_views integer check (max_views is null or max_views > 0),
  view_count integer not null default 0 check (view_count >= 0),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  check (expires_at is null or (expires_at >= created_at + interval '1 hour' and expires_at <= created_at + interval '1 year'))
);
create index share_links_album_id_idx on public.share_links (album_id, created_at desc);
create index share_links_created_by_idx on public.share_links (created_by);

-- devices ------------------------------------------------------------------------------------------
create table public.devices (
  user_id uuid not null references public.profiles (id) on delete cascade,
  id uuid not null,
  label text not null check (private.is_clean_text(label, 120)),
  kind text not null check (kind in ('desktop', 'mobile', 'tablet')),
  installed_pwa boolean not null default false,
  last_seen_at timestamptz not null default now(),
  primary key (user_id, id)
);

-- activity -----------------------------------------------------------------------------------------
create table public.activity (
  id uuid primary key default gen_random_uuid(),
  album_id uuid not null references public.albums (id) on delete cascade,
  actor_id uuid references public.profiles (id) on delete set null,
  verb text not null check (verb in ('added_items', 'created_album', 'commented', 'joined', 'trashed_items', 'restored_items')),
  subject uuid,
  count integer not null default 1 check (count >= 1),
  created_at timestamptz not null default now()
);
create index activity_album_idx on public.activity (album_id, created_at desc);
create index activity_actor_idx on public.activity (actor_id, album_id, verb, created_at desc);

-- Triggers -----------------------------------------------------------------------------------------

-- A profile for every new user, named from sign-up metadata or the e-mail's local part.
create function private.create_profile_for_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_name text := pg_catalog.btrim(pg_catalog.regexp_replace(coalesce(
    new.raw_user_meta_data ->> 'display_name', pg_catalog.split_part(coalesce(new.email, ''), '@', 1), ''), '[[:cntrl:]]', '', 'g'));
begin
  if v_name = '' then v_name := 'Someone'; end if;
  insert into public.profiles (id, display_name) values (new.id, pg_catalog.left(v_name, 60))
  on conflict (id) do nothing;
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.create_profile_for_user();

create function private.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;
create trigger albums_touch_updated_at before update on public.albums
  for each row execute function private.touch_updated_at();

-- [Note: Album counters]
-- albums.item_count and albums.bytes_total count the items the album shows: `ready` and not in the
-- trash. Statement-level triggers with transition tables keep them, so a batch of 10,000 items costs
-- one UPDATE per album rather than one per item. They run as the table owner so that a caller who may
-- trash an item but not update the album still moves the counters.
create function private.items_counters_insert() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.albums a set item_count = a.item_count + d.n, bytes_total = a.bytes_total + d.b
  from (select album_id, count(*)::int n, sum(bytes)::bigint b from new_rows
        where status = 'ready' and deleted_at is null group by album_id) d
  where a.id = d.album_id;
  return null;
end $$;

create function private.items_counters_delete() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.albums a set item_count = a.item_count - d.n, bytes_total = a.bytes_total - d.b
  from (select album_id, count(*)::int n, sum(bytes)::bigint b from old_rows
        where status = 'ready' and deleted_at is null group by album_id) d
  where a.id = d.album_id;
  return null;
end $$;

create function private.items_counters_update() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.albums a set item_count = a.item_count + d.n, bytes_total = a.bytes_total + d.b
  from (
    select album_id, sum(n)::int n, sum(b)::bigint b from (
      select album_id, 1 n, bytes b from new_rows where status = 'ready' and deleted_at is null
      union all
      select album_id, -1, -bytes from old_rows where status = 'ready' and deleted_at is null
    ) x group by album_id
  ) d
  where a.id = d.album_id and (d.n <> 0 or d.b <> 0);
  return null;
end $$;

create trigger items_counters_insert after insert on public.items
  referencing new table as new_rows for each statement execute function private.items_counters_insert();
create trigger items_counters_delete after delete on public.items
  referencing old table as old_rows for each statement execute function private.items_counters_delete();
create trigger items_counters_update after update on public.items
  referencing old table as old_rows new table as new_rows for each statement execute function private.items_counters_update();

-- An item never moves between albums (its object keys name the album).
create function private.items_freeze_identity() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.album_id <> old.album_id or new.id <> old.id then
    raise exception using errcode = 'P0001', message = 'validation/invalid', detail = 'An item cannot move to another album.';
  end if;
  return new;
end $$;
create trigger items_freeze_identity before update on public.items
  for each row execute function private.items_freeze_identity();

-- A comment is an activity of its album.
create function private.comments_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.activity (album_id, actor_id, verb, subject) values (new.album_id, new.author_id, 'commented', new.item_id);
  return null;
end $$;
create trigger comments_activity after insert on public.comments
  for each row execute function private.comments_activity();
