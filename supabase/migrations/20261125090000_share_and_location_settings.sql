-- What public links, guest uploads and the album's choice about location need on the rows themselves.
--
-- albums.keep_location: false (the default) means the uploader removes location data from originals in the
-- browser before they leave the device; true keeps originals exactly as they were taken. Link visitors of an
-- album that keeps locations never receive originals, only previews.
alter table public.albums add column keep_location boolean not null default false;

-- Per link, set by owners and editors: how much one guest may add (null: no limit of the link's own; the
-- product-wide limits still apply), and when the link was last opened.
alter table public.share_links
  add column guest_max_files integer check (guest_max_files is null or guest_max_files between 1 and 10000),
  add column guest_max_bytes bigint check (guest_max_bytes is null or guest_max_bytes between 1 and 10995116277760),
  add column last_opened_at timestamptz;

grant select (guest_max_files, guest_max_bytes, last_opened_at) on public.share_links to authenticated;
grant update (guest_max_files, guest_max_bytes) on public.share_links to authenticated;
