import type { PresenceViewer } from '../backend/ports';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).slice(0, 2);
  return parts.map((p) => p[0]?.toUpperCase() ?? '').join('') || '?';
}

/** Who else is looking at this album right now. */
export function Presence({ viewers }: { viewers: PresenceViewer[] }) {
  if (viewers.length === 0) return null;
  const names = viewers.map((v) => v.displayName).join(', ');
  return (
    <div className="presence" role="status" aria-label={`Viewing now: ${names}`} title={`Viewing now: ${names}`}>
      {viewers.slice(0, 5).map((v) => (
        <span key={v.userId} className="avatar" aria-hidden="true">
          {initials(v.displayName)}
        </span>
      ))}
      {viewers.length > 5 && <span className="muted">+{viewers.length - 5}</span>}
    </div>
  );
}
