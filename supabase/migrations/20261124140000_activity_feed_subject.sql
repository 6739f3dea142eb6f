-- The home screen's activity names what each line is about and who did it.
--
-- actor_name is null when the caller can no longer see the actor's profile: they left every album the two
-- shared, or their account is gone. The view used to say '' for them, which read as a line without a person;
-- the app now words it ("Someone who left"). subject_kind is the kind of the item a comment was made on
-- ("commented on a photo"), read through the caller's own policies on items: one lookup by primary key per
-- line, and null when the item is gone or not theirs to see.
create or replace view public.activity_feed with (security_invoker = true) as
select ac.id, ac.album_id, al.title as album_title, ac.actor_id, p.display_name as actor_name,
       ac.verb, ac.subject, ac.count, ac.created_at, si.kind as subject_kind
from public.activity ac
join public.albums al on al.id = ac.album_id
left join public.profiles p on p.id = ac.actor_id
left join public.items si on ac.verb = 'commented' and si.id = ac.subject;

revoke all on public.activity_feed from anon, authenticated;
grant select on public.activity_feed to authenticated;
