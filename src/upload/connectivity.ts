import { isAbortError } from '../lib/app-error';

// [Note: When is the queue offline]
//
// `navigator.onLine` is only the browser's guess: it says false when no interface is up, but it stays true
// behind a dead Wi-Fi, a captive portal, or a tunnel that dropped. So the queue is offline when either
//   - the browser says so (the `offline` event), until its `online` event; or
//   - a request of a network stage failed without an answer (the ports' `offline` or `backend/unreachable`)
//     AND a probe of our own origin also got no answer: the device, not only the server, is cut off.
// While offline for the second reason a probe runs every few seconds (longer and longer, up to a minute);
// the first answer, or the browser's `online` event, brings the queue back. A server that is down while the
// device is online fails its tasks as before (retryable): the queue does not pretend to be offline then.

/** Resolves true when the network answered at all (any HTTP status), false when nothing came back. */
export type Probe = (signal: AbortSignal) => Promise<boolean>;

const PROBE_TIMEOUT_MS = 8_000;
const FIRST_PROBE_MS = 3_000;
const MAX_PROBE_MS = 60_000;

/** A HEAD request to this origin at a path nothing caches: the service worker passes it to the network. */
export const probeOwnOrigin: Probe = async (signal) => {
  if (typeof location === 'undefined' || typeof fetch === 'undefined') return true;
  const url = new URL(`/connectivity-check?t=${Date.now().toString(36)}`, location.origin);
  try {
    await fetch(url, { method: 'HEAD', cache: 'no-store', credentials: 'omit', signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]) });
    return true;
  } catch (e) {
    if (signal.aborted && isAbortError(e)) throw e;
    return false;
  }
};

export interface ConnectivityDeps {
  probe?: Probe;
  /** Called after every change of `offline`. */
  changed(offline: boolean): void;
}

/** Whether the upload queue can reach the network now; see [Note: When is the queue offline]. */
export class Connectivity {
  private browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine !== false;
  /** A request found no network while the browser thought it had one. */
  private lost = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextProbeMs = FIRST_PROBE_MS;
  private readonly controller = new AbortController();
  private readonly probe: Probe;
  private listening = false;

  constructor(private readonly deps: ConnectivityDeps) {
    this.probe = deps.probe ?? probeOwnOrigin;
  }

  get offline(): boolean {
    return !this.browserOnline || this.lost;
  }

  listen(): void {
    if (this.listening || typeof window === 'undefined') return;
    this.listening = true;
    this.browserOnline = navigator.onLine !== false;
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  stop(): void {
    this.controller.abort();
    this.clearTimer();
    if (this.listening && typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
    this.listening = false;
  }

  /**
   * A network stage failed without an answer. Resolves true when the device is offline (the queue now is),
   * false when the network answers and the failure is the server's own.
   */
  async requestFailed(): Promise<boolean> {
    if (this.offline) return true;
    let reachable: boolean;
    try {
      reachable = await this.probe(this.controller.signal);
    } catch {
      return false;
    }
    if (reachable || this.controller.signal.aborted) return false;
    if (!this.lost) {
      this.lost = true;
      this.nextProbeMs = FIRST_PROBE_MS;
      this.deps.changed(true);
      this.scheduleProbe();
    }
    return true;
  }

  private scheduleProbe(): void {
    this.clearTimer();
    if (!this.lost || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => void this.probeAgain(), this.nextProbeMs);
    this.nextProbeMs = Math.min(MAX_PROBE_MS, this.nextProbeMs * 2);
  }

  private async probeAgain(): Promise<void> {
    this.timer = null;
    let reachable = false;
    try {
      reachable = await this.probe(this.controller.signal);
    } catch {
      return;
    }
    if (!this.lost) return;
    if (reachable) this.regained();
    else this.scheduleProbe();
  }

  private regained(): void {
    this.clearTimer();
    const was = this.offline;
    this.lost = false;
    if (was !== this.offline) this.deps.changed(this.offline);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly onOnline = () => {
    this.browserOnline = true;
    // The browser's word is worth a try: if the network is still gone, the next failure says so again.
    this.lost = false;
    this.clearTimer();
    this.deps.changed(this.offline);
  };

  private readonly onOffline = () => {
    this.browserOnline = false;
    this.deps.changed(true);
  };
}
