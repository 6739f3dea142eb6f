-- "Ana added 12 photos to Lisbon": a line of additions knows whether every item it counts is of one kind.
--
-- activity.item_kind is the kind of the first item a line of additions counts, and becomes `mixed` as soon as an
-- item of another kind joins the line (lines written before this column read as mixed: "items"). The feed's
-- subject_kind says it for additions as it says the commented item's kind for comments.

alter table public.activity add column item_kind text check (item_kind in ('image', 'video', 'file', 'mixed'));
update public.activity set item_kind = 'mixed' where verb = 'added_items';

create or replace function private.record_activity(p_album_id uuid, p_verb text, p_count int, p_subject uuid default null) returns void
language plpgsql set search_path = '' as $$
declare
  v_id uuid;
  v_kind text := case when p_verb = 'added_items' then
                   coalesce((select i.kind from public.items i where i.album_id = p_album_id and i.id = p_subject), 'mixed') end;
begin
  if p_count < 1 then return; end if;
  select ac.id into v_id from public.activity ac
  where ac.album_id = p_album_id and ac.actor_id = (select auth.uid()) and ac.verb = p_verb
    and ac.created_at > now() - interval '10 minutes'
  order by ac.created_at desc limit 1;
  if v_id is not null and p_verb in ('added_items', 'trashed_items', 'restored_items') then
    update public.activity
    set count = count + p_count, created_at = now(),
        item_kind = case when item_kind is not distinct from v_kind then item_kind
                         when p_verb = 'added_items' then 'mixed' end
    where id = v_id;
  else
    insert into public.activity (album_id, actor_id, verb, subject, count, item_kind)
    values (p_album_id, (select auth.uid()), p_verb, p_subject, p_count, v_kind);
  end if;
end $$;

create or replace view public.activity_feed with (security_invoker = true) as
select ac.id, ac.album_id, al.title as album_title, ac.actor_id, p.display_name as actor_name,
       ac.verb, ac.subject, ac.count, ac.created_at,
       case when ac.verb = 'commented' then si.kind
            when ac.verb = 'added_items' then nullif(ac.item_kind, 'mixed') end as subject_kind
from public.activity ac
join public.albums al on al.id = ac.album_id
left join public.profiles p on p.id = ac.actor_id
left join public.items si on ac.verb = 'commented' and si.id = ac.subject;

revoke all on public.activity_feed from anon, authenticated;
grant select on public.activity_feed to authenticated;
