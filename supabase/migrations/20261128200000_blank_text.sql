-- Titles, names, labels and guest names must show something (PRODUCT.md §5: trimmed, non-empty). Trimming
-- removes spaces, yet a name made only of characters that draw nothing was accepted: the no-break space
-- U+00A0, the ideographic space U+3000, the Hangul fillers U+3164, U+115F, U+1160 and U+FFA0, the blank
-- Braille pattern U+2800, the other Unicode spaces, the Khmer inherent vowels U+17B4/U+17B5. A member listed as
-- "ㅤ" cannot be told from nobody. And the object replacement character U+FFFC and the line and paragraph
-- separators U+2028/U+2029 (a line break inside a one-line text) were accepted anywhere in it.
--
-- [Note: Blank-looking text]
-- Such a text is refused; the characters stay allowed beside visible ones (a no-break space inside a name is
-- ordinary typing). src/lib/validation.ts holds the same lists, so the forms say so before the database does.

create function private.blank_chars() returns text
language sql immutable parallel safe set search_path = '' as $$
  select '[ \t\n\r\f\v\u00a0\u115f\u1160\u1680\u17b4\u17b5\u2000-\u200a\u2028\u2029\u202f\u205f\u2800\u3000\u3164\uffa0]'::text
$$;
revoke all on function private.blank_chars() from public, anon;
grant execute on function private.blank_chars() to authenticated, service_role;

create or replace function private.is_clean_text(p_text text, p_max_len int) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_text is not null
     and p_text = pg_catalog.btrim(p_text)
     and pg_catalog.char_length(p_text) between 1 and p_max_len
     and p_text !~ '[[:cntrl:]]'
     and p_text !~ private.invisible_format_chars()
     and p_text !~ '[\u2028\u2029\ufffc]'
     and p_text !~ ('^' || private.blank_chars() || '+$')
$$;

-- Rows written before the rule keep a name that shows, so that a later write of the same row does not trip it.
create function private.shown_or(p_text text, p_fallback text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select case
    when p_text is null then p_fallback
    else coalesce(nullif(pg_catalog.btrim(pg_catalog.regexp_replace(
           pg_catalog.regexp_replace(p_text, '[\u2028\u2029\ufffc]', ' ', 'g'),
           '^' || private.blank_chars() || '+$', '')), ''), p_fallback)
  end
$$;
revoke all on function private.shown_or(text, text) from public, anon, authenticated;

update public.albums set title = private.shown_or(title, 'Untitled')
where title ~ '[\u2028\u2029\ufffc]' or title ~ ('^' || private.blank_chars() || '+$');
update public.profiles set display_name = private.shown_or(display_name, 'Someone')
where display_name ~ '[\u2028\u2029\ufffc]' or display_name ~ ('^' || private.blank_chars() || '+$');
update public.devices set label = private.shown_or(label, 'Device')
where label ~ '[\u2028\u2029\ufffc]' or label ~ ('^' || private.blank_chars() || '+$');
update public.share_links set label = private.shown_or(label, null)
where label ~ '[\u2028\u2029\ufffc]' or label ~ ('^' || private.blank_chars() || '+$');
update public.items set guest_label = private.shown_or(guest_label, 'Guest')
where guest_label ~ '[\u2028\u2029\ufffc]' or guest_label ~ ('^' || private.blank_chars() || '+$');
update public.share_guests set name = private.shown_or(name, 'Guest')
where name ~ '[\u2028\u2029\ufffc]' or name ~ ('^' || private.blank_chars() || '+$');

-- A new user's profile is named from sign-up metadata: a name that would not pass is "Someone".
create or replace function private.create_profile_for_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_name text := private.without_invisible(pg_catalog.regexp_replace(coalesce(
    new.raw_user_meta_data ->> 'display_name', pg_catalog.split_part(coalesce(new.email, ''), '@', 1), ''), '[[:cntrl:]\u2028\u2029\ufffc]', '', 'g'));
begin
  v_name := pg_catalog.btrim(pg_catalog.left(v_name, 60));
  if not private.is_clean_text(v_name, 60) then v_name := 'Someone'; end if;
  insert into public.profiles (id, display_name) values (new.id, v_name)
  on conflict (id) do nothing;
  return new;
end $$;
