/**
 * Asks before the page is left (reload, close, navigation away) while any hold is taken: files being added are
 * not in the upload queue until their copies are stored, and leaving meanwhile would lose them.
 */
export class LeaveGuard {
  private holds = 0;

  private readonly ask = (e: BeforeUnloadEvent) => {
    e.preventDefault();
    // Older browsers ask only when a return value is set.
    e.returnValue = '';
  };

  /** Takes a hold; call what it returns, once, to let go of it. */
  hold(): () => void {
    if (this.holds++ === 0 && typeof window !== 'undefined') window.addEventListener('beforeunload', this.ask);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && typeof window !== 'undefined') window.removeEventListener('beforeunload', this.ask);
    };
  }
}
