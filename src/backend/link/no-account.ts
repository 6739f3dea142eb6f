/** What a backend for someone who came by a share link — a visitor or a guest — can say of itself. */
import type { BackendCapabilities } from '../ports';

export const NO_ACCOUNT_CAPABILITIES: BackendCapabilities = {
  storage: { onDevice: false, sidecars: false },
  network: { required: true },
  sharing: { members: false },
};
