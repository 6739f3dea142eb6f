-- The `shoebox` bucket on Supabase Storage accepts only the types the app stores objects with: photos,
-- videos and audio as themselves, previews and thumbnails as WebP or JPEG, every other file as
-- application/octet-stream (src/backend/s3/content-types.ts, STORABLE_TYPES). Storage refuses any other
-- Content-Type on every upload path, its S3 endpoint included, so an upload signed with a user's own session
-- cannot store SVG, HTML or XML that a browser would render on the storage origin.
--
-- Exact types only, never a wildcard: Storage compares a type's halves split at '/', so with `image/*` the
-- type `image/png; x=1, text/html` (HTML to a browser) would pass.
update storage.buckets
set allowed_mime_types = array[
  'image/jpeg', 'image/png', 'image/apng', 'image/gif', 'image/webp', 'image/avif', 'image/bmp',
  'image/heic', 'image/heif', 'image/tiff',
  'video/mp4', 'video/webm', 'video/quicktime', 'video/ogg',
  'audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/wav', 'audio/webm', 'audio/flac', 'audio/aac',
  'application/octet-stream'
]
where id = 'shoebox';
