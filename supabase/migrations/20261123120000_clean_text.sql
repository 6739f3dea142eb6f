-- Titles, names, labels, descriptions and comments refuse invisible format characters (PRODUCT.md §5), as
-- they already refused control characters: a bidi override can make "photos‮gpj.exe" read as something else,
-- and a zero-width space makes two names that look the same differ.
--
-- [Note: Invisible format characters]
-- Refused: the Unicode format characters (general category Cf) that change how text reads without showing
-- themselves: soft hyphen U+00AD, Arabic letter mark U+061C, Mongolian vowel separator U+180E, zero-width
-- space U+200B, the marks and embeddings/overrides/isolates U+200E–200F, U+202A–202E, U+2066–2069, word
-- joiner and invisible operators U+2060–2064, the deprecated U+206A–206F, the byte order mark U+FEFF, the
-- interlinear annotation marks U+FFF9–FFFB, the musical beam and phrase controls U+1D173–1D17A and the
-- language tag U+E0001.
-- Kept, because real text needs them: zero-width non-joiner and joiner U+200C/U+200D (Persian and Indic
-- scripts, emoji sequences such as families), the tag characters U+E0020–E007F (flags such as Scotland's),
-- and the format characters that show as signs of their scripts (Arabic number signs U+0600–0605 and
-- friends, Egyptian hieroglyph and Duployan format controls).
-- src/lib/validation.ts holds the same list, so the forms say so before the database refuses.

create function private.invisible_format_chars() returns text
language sql immutable parallel safe set search_path = '' as $$
  select '[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U0001d173-\U0001d17a\U000e0001]'::text
$$;

create or replace function private.is_clean_text(p_text text, p_max_len int) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_text is not null
     and p_text = pg_catalog.btrim(p_text)
     and pg_catalog.char_length(p_text) between 1 and p_max_len
     and p_text !~ '[[:cntrl:]]'
     and p_text !~ private.invisible_format_chars()
$$;

create or replace function private.is_free_text(p_text text, p_max_len int) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_text is not null
     and pg_catalog.char_length(p_text) <= p_max_len
     and p_text !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'
     and p_text !~ private.invisible_format_chars()
$$;

revoke all on function private.invisible_format_chars() from public, anon;
grant execute on function private.invisible_format_chars() to authenticated, service_role;

-- Text written before this rule loses its invisible characters, so that a later write of the same row (a
-- counter moving on an album, say) does not trip the stricter check. A text left empty gets a neutral name.
create function private.without_invisible(p_text text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select pg_catalog.btrim(pg_catalog.regexp_replace(p_text, private.invisible_format_chars(), '', 'g'))
$$;
revoke all on function private.without_invisible(text) from public, anon, authenticated;

update public.albums set title = coalesce(nullif(private.without_invisible(title), ''), 'Untitled')
where title ~ private.invisible_format_chars();
update public.albums set description = pg_catalog.regexp_replace(description, private.invisible_format_chars(), '', 'g')
where description ~ private.invisible_format_chars();
update public.profiles set display_name = coalesce(nullif(private.without_invisible(display_name), ''), 'Someone')
where display_name ~ private.invisible_format_chars();
update public.devices set label = coalesce(nullif(private.without_invisible(label), ''), 'Device')
where label ~ private.invisible_format_chars();
update public.share_links set label = nullif(private.without_invisible(label), '')
where label ~ private.invisible_format_chars();
update public.items set guest_label = nullif(private.without_invisible(guest_label), '')
where guest_label ~ private.invisible_format_chars();
update public.comments set body = coalesce(nullif(private.without_invisible(body), ''), '…')
where body ~ private.invisible_format_chars();

-- A new user's profile is named from sign-up metadata: the same characters are left out there.
create or replace function private.create_profile_for_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_name text := private.without_invisible(pg_catalog.regexp_replace(coalesce(
    new.raw_user_meta_data ->> 'display_name', pg_catalog.split_part(coalesce(new.email, ''), '@', 1), ''), '[[:cntrl:]]', '', 'g'));
begin
  if v_name = '' then v_name := 'Someone'; end if;
  insert into public.profiles (id, display_name) values (new.id, pg_catalog.btrim(pg_catalog.left(v_name, 60)))
  on conflict (id) do nothing;
  return new;
end $$;
