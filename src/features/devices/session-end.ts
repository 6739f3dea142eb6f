/**
 * Telling a sign-out made here from one that came from elsewhere (another device signed this one out, or its
 * session ended): only the second earns a notice on the sign-in screen. A session seen is remembered across
 * reloads, since a browser signed out elsewhere often learns it only when the app starts again and its
 * refresh is refused.
 */
const HAD_SESSION_KEY = 'shoebox.had-session';
const NOTICE_KEY = 'shoebox.signed-out-elsewhere';

let signingOutHere = false;

function attempt(fn: () => void): void {
  try {
    fn();
  } catch {
    // Without storage the sign-in screen simply shows no notice.
  }
}

/** Someone is signed in on this browser. */
export function sessionSeen(): void {
  signingOutHere = false;
  attempt(() => localStorage.setItem(HAD_SESSION_KEY, '1'));
}

/** Called before this browser signs itself out, so that no notice follows. */
export function signingOutOnPurpose(): void {
  signingOutHere = true;
  attempt(() => localStorage.removeItem(HAD_SESSION_KEY));
}

/** Nobody is signed in: if someone was, and did not sign out here, the sign-in screen owes a notice. */
export function sessionEnded(): void {
  attempt(() => {
    const had = localStorage.getItem(HAD_SESSION_KEY) === '1';
    localStorage.removeItem(HAD_SESSION_KEY);
    if (had && !signingOutHere) sessionStorage.setItem(NOTICE_KEY, '1');
  });
  signingOutHere = false;
}

/** Whether the sign-in screen owes a notice. */
export function signedOutNoticeOwed(): boolean {
  let owed = false;
  attempt(() => {
    owed = sessionStorage.getItem(NOTICE_KEY) === '1';
  });
  return owed;
}

/** The notice was shown: it is not shown again. */
export function signedOutNoticeShown(): void {
  attempt(() => sessionStorage.removeItem(NOTICE_KEY));
}
