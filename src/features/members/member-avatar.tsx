import { initials } from '../../lib/initials';
import { useObjectUrls } from '../../shared/files/use-object-urls';


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
