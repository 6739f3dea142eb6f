import { isIosSafariInBrowser } from './ios-safari';

/** One line on the uploads screen where the queue's files could be erased after a week away. */
export function IosStorageNote() {
  if (typeof navigator === 'undefined' || !isIosSafariInBrowser()) return null;
  return (
    <p className="muted upload-ios-note">
      Safari clears a site’s stored data after 7 days without a visit, waiting uploads included, unless Shoebox is added to the Home Screen.
    </p>
  );
}
