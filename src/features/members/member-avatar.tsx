import { useObjectUrls } from '../files/use-object-urls';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).slice(0, 2);
  return parts.map((p) => p[0]?.toUpperCase() ?? '').join('') || '?';
}

/** A member's picture, or their initials when they have none (or it cannot be read). */
export function MemberAvatar({ name, avatarKey }: { name: string; avatarKey: string | null }) {
  const urls = useObjectUrls([avatarKey]);
  const url = avatarKey ? urls.data?.get(avatarKey) : undefined;
  return (
    <span className="avatar avatar--large" aria-hidden="true">
      {url ? <img src={url} alt="" /> : initials(name)}
    </span>
  );
}
