/**
 * What this browser says of itself for the devices list: an id made once and kept in localStorage, a label
 * from the user agent and, in Chromium, User-Agent Client Hints (the reduced user agent says "Android 10; K":
 * the model comes from the hints), and whether it runs as the installed app.
 */
import type { DeviceInput } from '../../domain/entities';
import { deviceLabel, type UaHints } from '../../lib/device-label';

const ID_KEY = 'shoebox.device-id';
const HINTS = ['model', 'platformVersion', 'fullVersionList'];
/** Hints come from the browser itself; should they not come, the label goes without them. */
const HINTS_WAIT_MS = 1_000;

interface UserAgentData {
  mobile?: boolean;
  platform?: string;
  getHighEntropyValues?: (hints: string[]) => Promise<UaHints>;
}

let memoryId: string | null = null;

/** This browser's device id: made once, then kept (in memory only where storage is refused). */
export function thisDeviceId(): string {
  try {
    const kept = localStorage.getItem(ID_KEY);
    if (kept && /^[0-9a-f-]{36}$/i.test(kept)) return kept;
    const id = crypto.randomUUID();
    localStorage.setItem(ID_KEY, id);
    return id;
  } catch {
    memoryId ??= crypto.randomUUID();
    return memoryId;
  }
}

/** Running as the installed app: display-mode standalone, or iOS's home-screen flag. */
export function runsInstalled(): boolean {
  const standalone = typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

async function clientHints(): Promise<UaHints | null> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data?.getHighEntropyValues) return null;
  try {
    const asked = data.getHighEntropyValues(HINTS);
    const late = new Promise<null>((r) => setTimeout(() => r(null), HINTS_WAIT_MS));
    const hints = await Promise.race([asked, late]);
    return hints ? { ...hints, ...(data.mobile === undefined ? {} : { mobile: data.mobile }) } : null;
  } catch {
    return null;
  }
}

/** This device as the devices list records it. */
export async function thisDevice(): Promise<DeviceInput> {
  const { label, kind } = deviceLabel(navigator.userAgent, { hints: await clientHints(), maxTouchPoints: navigator.maxTouchPoints });
  return { id: thisDeviceId(), label, kind, installed: runsInstalled() };
}
