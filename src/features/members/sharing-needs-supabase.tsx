/**
 * Where the README explains how to point Shoebox at a Supabase project ("Running on your own Supabase
 * project"); the only place the app names it.
 */
export const SHARING_SETUP_URL = 'https://github.com/shoebox-photos/shoebox#running-on-your-own-supabase-project';

/** Why an album on this device has one member, and where to read how to share. */
export function SharingNeedsSupabase() {
  return (
    <p className="notice" data-testid="sharing-needs-supabase">
      Albums on this device belong to you alone. Sharing with other people needs a Supabase project:{' '}
      <a href={SHARING_SETUP_URL} target="_blank" rel="noopener noreferrer">
        see how to set one up
      </a>
      .
    </p>
  );
}
