import { LinkShownOnce } from '../../ui/link-shown-once';

/** A new invitation's link, shown once with its QR code. */
export function InviteLink({ url }: { url: string }) {
  return <LinkShownOnce url={url} label="Invitation link" copiedHint="Send it to whoever you invite." testId="invite-link" />;
}
