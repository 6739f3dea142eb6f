-- `sidecar: true` on an item whose original came with an XMP sidecar that is kept beside it in the bucket
-- ([Note: Sidecars beside originals] in src/backend/sidecar-writer.ts): a download with sidecars starts from that
-- one, so the fields Shoebox does not know (develop settings, other tools' fields) come back with the photo. Set
-- by the upload that stored it; an edit keeps it (edited_metadata changes only the fields an edit names).
-- Otherwise the bound of 20261202100000_item_taken_offset.sql, unchanged.

create or replace function private.is_item_metadata(p_metadata jsonb) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select p_metadata is not null
     and pg_catalog.jsonb_typeof(p_metadata) = 'object'
     and pg_catalog.octet_length(p_metadata::text) <= 16384
     and not exists (
       select 1 from pg_catalog.jsonb_each(p_metadata) e(k, v)
       where not (
            (e.k in ('cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label', 'creator', 'rights') and pg_catalog.jsonb_typeof(e.v) = 'string')
         or (e.k in ('exposureTime', 'fNumber', 'iso', 'focalLength', 'rating') and pg_catalog.jsonb_typeof(e.v) = 'number')
         or (e.k = 'takenOffset' and pg_catalog.jsonb_typeof(e.v) = 'number'
             and (e.v #>> '{}')::numeric between -840 and 840 and (e.v #>> '{}')::numeric % 1 = 0)
         or (e.k = 'notice' and e.v in ('"image/undecodable"'::jsonb, '"image/too-large"'::jsonb))
         or (e.k = 'location' and e.v in ('"removed"'::jsonb, '"preview"'::jsonb, '"kept"'::jsonb))
         or (e.k = 'animated' and e.v = 'true'::jsonb)
         or (e.k = 'sidecar' and e.v = 'true'::jsonb)
         or (e.k in ('keywords', 'keywordPaths') and pg_catalog.jsonb_typeof(e.v) = 'array' and pg_catalog.jsonb_array_length(e.v) <= 200
             and not exists (select 1 from pg_catalog.jsonb_array_elements(e.v) w(x)
                             where pg_catalog.jsonb_typeof(w.x) <> 'string'
                                or pg_catalog.char_length(w.x #>> '{}') > case when e.k = 'keywords' then 100 else 200 end))))
$$;
