-- Live updates of an open album (postgres_changes filtered by album_id) and of the albums screen.
-- Realtime checks each change against the subscriber's RLS, so only members receive an album's changes.
-- A delete event must carry album_id, which the per-album filter needs: items by their (album_id, id)
-- key (a full identity would include the generated sort column, which publications do not carry),
-- the others in full.
alter table public.items replica identity using index items_album_id_id_key;
alter table public.comments replica identity full;
alter table public.favorites replica identity full;
alter table public.album_members replica identity full;
alter table public.albums replica identity full;

alter publication supabase_realtime add table
  public.items, public.comments, public.favorites, public.album_members, public.albums;
