/**
 * Why an album on this device has one member, and where to read how to share. The set-up steps live in the
 * README that comes with the code ("Running on your own Supabase project"); a deployed copy has no address of
 * its own for them, so the section is named rather than linked.
 */
export function SharingNeedsSupabase() {
  return (
    <p className="notice" data-testid="sharing-needs-supabase">
      Albums on this device belong to you alone. Sharing them with other people needs a Supabase project: the
      README’s section <q>Running on your own Supabase project</q> says how to connect one.
    </p>
  );
}
