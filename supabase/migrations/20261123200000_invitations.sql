-- Invitations say what is wrong with them (PRODUCT.md §8): `invite/not-found`, `invite/expired`,
-- `invite/revoked` and `invite/used-up`, where accept_invite answered with share link codes and one code for
-- expired and used up alike. The invite page previews the album for a valid token, and the owner revokes
-- through a function.
--
-- [Note: Accepting an invitation]
-- * The invitation's row is locked (`for update`) before its uses are counted, so two people accepting the
--   last use at once are served one after the other: the first joins, the second hears `invite/used-up`.
--   The count only moves while it is below max_uses, whatever happens before.
-- * Someone who is already a member keeps their role when the invitation's is not higher, and no use is
--   spent: opening an old link again simply opens the album. When the invitation's role is higher (the owner
--   invited a viewer as an editor), the member takes it, and that spends a use, exactly as leaving and joining
--   through the link would: a single-use link still grants one role to one person.
-- * An invitation bound to an e-mail address is `invite/not-found` for anyone else, before anything else is
--   said about it, so the wrong person learns nothing about it.
-- * A deleted album's invitations are `invite/not-found`.

-- Activity names what happens to membership as well: a member left or was removed, a role changed, the
-- album changed hands.
alter table public.activity drop constraint activity_verb_check;
alter table public.activity add constraint activity_verb_check check (verb in (
  'added_items', 'created_album', 'commented', 'joined', 'trashed_items', 'restored_items',
  'left', 'removed_member', 'changed_role', 'transferred_ownership'));

-- The rank of a role, for "never lower a role".
create function private.role_rank(p_role text) returns integer
language sql immutable parallel safe set search_path = '' as $$
  select case p_role when 'owner' then 4 when 'editor' then 3 when 'contributor' then 2 when 'viewer' then 1 else 0 end
$$;

-- Raises the code that says why `p_inv` (read by its token; all nulls when none matched) cannot be used by
-- the caller whose e-mail is `p_email`; returns when it can.
create function private.check_invite(p_inv public.invites, p_email text) returns void
language plpgsql stable set search_path = '' as $$
begin
  if p_inv.id is null or (p_inv.email is not null and p_inv.email <> p_email) then
    perform private.fail('invite/not-found', 'This invitation does not exist, or it is for another e-mail address.');
  end if;
  if p_inv.revoked_at is not null then
    perform private.fail('invite/revoked', 'This invitation was withdrawn by the album''s owner.');
  end if;
  if p_inv.expires_at <= now() then
    perform private.fail('invite/expired', 'This invitation has expired.');
  end if;
  if p_inv.max_uses is not null and p_inv.use_count >= p_inv.max_uses then
    perform private.fail('invite/used-up', 'This invitation has been used as many times as it allows.');
  end if;
end $$;

create function private.caller_email() returns text
language sql stable set search_path = '' as $$
  select pg_catalog.lower(coalesce((select auth.jwt()) ->> 'email', ''))
$$;

create or replace function public.accept_invite(p_token text) returns setof public.album_summaries
language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_user();
  v_inv public.invites;
  v_role text;
begin
  -- The lock serialises accepts of one invitation ([Note: Accepting an invitation]).
  select i.* into v_inv from public.invites i
  join public.albums a on a.id = i.album_id and a.deleted_at is null
  where i.token_hash = private.hash_token(coalesce(p_token, ''))
  for update of i;
  if v_inv.id is not null then
    select m.role into v_role from public.album_members m where m.album_id = v_inv.album_id and m.user_id = v_uid;
  end if;
  if v_role is not null and private.role_rank(v_inv.role) <= private.role_rank(v_role) then
    return query select * from public.album_summaries s where s.id = v_inv.album_id;
    return;
  end if;
  perform private.check_invite(v_inv, private.caller_email());
  if v_role is not null then
    update public.album_members set role = v_inv.role where album_id = v_inv.album_id and user_id = v_uid;
    perform private.record_activity(v_inv.album_id, 'changed_role', 1, v_uid);
  else
    insert into public.album_members (album_id, user_id, role, added_by)
    values (v_inv.album_id, v_uid, v_inv.role, v_inv.created_by)
    on conflict (album_id, user_id) do nothing;
    if not found then
      -- Joined a moment ago through another invitation of the same album: nothing to spend.
      return query select * from public.album_summaries s where s.id = v_inv.album_id;
      return;
    end if;
    perform private.record_activity(v_inv.album_id, 'joined', 1);
  end if;
  update public.invites set use_count = use_count + 1
  where id = v_inv.id and (max_uses is null or use_count < max_uses);
  return query select * from public.album_summaries s where s.id = v_inv.album_id;
end $$;

-- What the invite page shows a signed-in person holding a valid token, before they join: the album's title,
-- its cover's thumbnail key and the inviter's name. Nothing else (no id, no members, no counts), and nothing
-- at all for a token that is unknown, withdrawn, expired, used up or meant for someone else (each its code).
create function public.invite_preview(p_token text)
returns table (album_title text, cover_thumb_key text, inviter_name text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_inv public.invites;
begin
  perform private.require_user();
  select i.* into v_inv from public.invites i
  join public.albums a on a.id = i.album_id and a.deleted_at is null
  where i.token_hash = private.hash_token(coalesce(p_token, ''));
  perform private.check_invite(v_inv, private.caller_email());
  return query
    select a.title,
           coalesce(cv.thumb_key, nw.thumb_key),
           coalesce(p.display_name, '')
    from public.albums a
    left join public.items cv
      on cv.album_id = a.id and cv.id = a.cover_item_id and cv.status = 'ready' and cv.deleted_at is null
    left join lateral (
      select i.thumb_key from public.items i
      where i.album_id = a.id and i.status = 'ready' and i.deleted_at is null
        and i.kind in ('image', 'video') and i.thumb_key is not null
      order by i.created_at desc, i.id desc
      limit 1
    ) nw on cv.id is null
    left join public.profiles p on p.id = v_inv.created_by
    where a.id = v_inv.album_id;
end $$;

-- The owner withdraws an invitation; withdrawing it again keeps the first time. Anyone else, and any id that
-- is not an invitation, gets `album/not-found` or `album/forbidden` as for any other album function.
create function public.revoke_invite(p_invite_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_album uuid;
begin
  perform private.require_user();
  select i.album_id into v_album from public.invites i where i.id = p_invite_id;
  if v_album is null then
    perform private.fail('album/not-found', 'This album does not exist or you are not a member of it.');
  end if;
  perform private.require_role(v_album, array['owner']);
  update public.invites set revoked_at = coalesce(revoked_at, now()) where id = p_invite_id;
end $$;

-- Revoking goes only through revoke_invite (a direct update could also un-revoke, or back-date, a withdrawal,
-- and answered an editor with silence instead of `album/forbidden`). The owner still reads the pending
-- invitations directly (every column but token_hash) and may delete them.
drop policy invites_update on public.invites;
revoke update on public.invites from authenticated;

revoke all on function private.role_rank(text), private.check_invite(public.invites, text), private.caller_email()
  from public, anon, authenticated;
revoke all on function public.invite_preview(text), public.revoke_invite(uuid) from public, anon;
grant execute on function public.invite_preview(text), public.revoke_invite(uuid) to authenticated, service_role;
