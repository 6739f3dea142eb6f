import { useEffect, useState } from 'react';
import { signedOutNoticeOwed, signedOutNoticeShown } from './session-end';

/** On the sign-in screen, after this browser was signed out from elsewhere (or its session ended). */
export function SignedOutNotice() {
  const [owed] = useState(signedOutNoticeOwed);
  useEffect(() => {
    if (owed) signedOutNoticeShown();
  }, [owed]);
  if (!owed) return null;
  return (
    <p className="notice" role="status" data-testid="signed-out-elsewhere">
      You were signed out on this device, from another device or because your session ended. Sign in again to carry on.
    </p>
  );
}
