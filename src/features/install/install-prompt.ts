/** Chromium's `beforeinstallprompt` event (not in TypeScript's DOM library). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

export interface InstallPromptState {
  /** The browser's own install prompt, kept until used; null where it never came (or is spent). */
  event: BeforeInstallPromptEvent | null;
  /** Installed from here (appinstalled), now or on an earlier visit. */
  installed: boolean;
  /** The person said they do not want it suggested again. */
  dismissed: boolean;
}

/** Where the choice outlives the tab. */
export const INSTALL_HELP_KEY = 'shoebox:install-help';

type Stored = Pick<InstallPromptState, 'installed' | 'dismissed'>;

function readStored(storage: Storage | null): Stored {
  try {
    const v: unknown = JSON.parse(storage?.getItem(INSTALL_HELP_KEY) ?? '{}');
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
    return { installed: o.installed === true, dismissed: o.dismissed === true };
  } catch {
    return { installed: false, dismissed: false }; // unreadable or refused storage: suggest again, nothing worse
  }
}

/**
 * [Note: Capturing the install prompt]
 * Chromium fires `beforeinstallprompt` once, early (often before React has rendered), and only to listeners
 * already there; so main.tsx starts this before the app. The event is kept, with its default prevented (no
 * mini-infobar on Android: our header button is the one discreet offer), until the person clicks Install.
 * `appinstalled` (from our prompt or the browser's own menu) and a dismissal are kept in localStorage, so the
 * help never shows again in this browser. A later `beforeinstallprompt` means the browser sees the app as not
 * installed (it was removed since), so it clears a stored "installed", never a dismissal. Turning the
 * browser's prompt down counts as a dismissal.
 */
export class InstallPrompt {
  private state: InstallPromptState;
  private readonly listeners = new Set<() => void>();
  private readonly stopped = new AbortController();

  /** `target` is the window the events come to; `storage` its localStorage (null where refused). */
  constructor(target: EventTarget, private readonly storage: Storage | null) {
    this.state = { event: null, ...readStored(storage) };
    const signal = this.stopped.signal;
    target.addEventListener('beforeinstallprompt', (e) => {
      e.preventDefault();
      this.set({ event: e as BeforeInstallPromptEvent, installed: false });
    }, { signal });
    target.addEventListener('appinstalled', () => this.set({ event: null, installed: true }), { signal });
  }

  /** Stops listening (the app's own lives as long as the page). */
  close(): void {
    this.stopped.abort();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): InstallPromptState => this.state;

  /** Shows the browser's prompt; the event can be used once, so it is spent whatever the answer. */
  async prompt(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
    const event = this.state.event;
    if (!event) return 'unavailable';
    this.set({ event: null });
    await event.prompt();
    const { outcome } = await event.userChoice;
    // Turning the browser's own prompt down is as clear a "no" as our dismiss button.
    this.set(outcome === 'accepted' ? { installed: true } : { dismissed: true });
    return outcome;
  }

  /** Never suggest installing again in this browser. */
  dismiss(): void {
    this.set({ dismissed: true });
  }

  private set(patch: Partial<InstallPromptState>) {
    const before = this.state;
    this.state = { ...before, ...patch };
    if (before.installed !== this.state.installed || before.dismissed !== this.state.dismissed) {
      try {
        this.storage?.setItem(INSTALL_HELP_KEY, JSON.stringify({ installed: this.state.installed, dismissed: this.state.dismissed }));
      } catch {
        // Not kept: the help may show again on the next visit.
      }
    }
    for (const l of this.listeners) l();
  }
}

function safeLocalStorage(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

let appPrompt: InstallPrompt | null = null;

/** The app's one listener, started by main.tsx before the first render (see [Note: Capturing the install prompt]). */
export function startInstallPrompt(win: Window): InstallPrompt {
  return (appPrompt ??= new InstallPrompt(win, safeLocalStorage(win)));
}
