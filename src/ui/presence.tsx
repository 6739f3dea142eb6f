import type { PresenceViewer } from '../domain/entities';
import { initials } from '../lib/initials';

/** How many faces show before the rest become "+N". */
const SHOWN = 5;


/**
 * A colour per person, the same on every screen and device: a hue from their id. Saturation and lightness
 * are fixed so white initials keep a contrast above 4.5:1 on every hue (yellow, the lightest, is 5.3:1 at 28 %).
 */
export function avatarHue(userId: string): number {
  // FNV-1a, then a final mix: ids that differ in one character (user-1, user-2) still land far apart.
  let h = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) h = Math.imul(h ^ userId.charCodeAt(i), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  return (h ^ (h >>> 13)) % 360;
}

/** Who else is looking at this album right now: a list of names, shown as initials in coloured circles. */
export function Presence({ viewers }: { viewers: PresenceViewer[] }) {
  if (viewers.length === 0) return null;
  const hidden = viewers.slice(SHOWN);
  return (
    <ul className="presence" aria-label="Looking now">
      {viewers.slice(0, SHOWN).map((v) => (
        // Focusable so the name shows to keyboard users as it does on hover.
        <li key={v.userId} className="presence__person" tabIndex={0} data-name={v.displayName} title={v.displayName}>
          <span className="avatar avatar--live" aria-hidden="true" style={{ backgroundColor: `hsl(${avatarHue(v.userId)} 55% 28%)`, color: '#fff' }}>
            {initials(v.displayName)}
          </span>
          <span className="visually-hidden">{v.displayName}</span>
        </li>
      ))}
      {hidden.length > 0 && (
        <li className="presence__person" tabIndex={0} data-name={hidden.map((v) => v.displayName).join(', ')} title={hidden.map((v) => v.displayName).join(', ')}>
          <span className="avatar presence__more" aria-hidden="true">+{hidden.length}</span>
          <span className="visually-hidden">and {hidden.length} more: {hidden.map((v) => v.displayName).join(', ')}</span>
        </li>
      )}
    </ul>
  );
}
