/**
 * The data ports' contracts, one suite per port, for a member's backend. Written against the ports only, so any
 * backend runs them with a factory of fresh backends. `shareLinks: false`: the backend has no share-links port
 * (albums cannot be shared by link there), and the test says so instead.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import { describeActivityContract } from './activity-contract';
import { describeAlbumsContract } from './albums-contract';
import { describeDevicesContract } from './devices-contract';
import { describeItemsContract } from './items-contract';
import { describeMembersContract } from './members-contract';
import { describeSearchContract } from './search-contract';
import { describeShareLinksContract } from './share-links-contract';
import { describeSocialContract } from './social-contract';

export function describeDataPortsContract(name: string, makeBackend: () => Promise<Backend> | Backend, opts: { shareLinks?: boolean } = {}): void {
  describe(`data ports contract: ${name}`, () => {
    describeAlbumsContract(makeBackend);
    describeItemsContract(makeBackend);
    describeSearchContract(makeBackend);
    describeActivityContract(makeBackend);
    describeMembersContract(makeBackend);
    describeSocialContract(makeBackend);
    if (opts.shareLinks === false) {
      it('has no share-links port: nothing can be shared by link', async () => {
        expect((await makeBackend()).shareLinks).toBeUndefined();
      });
    } else describeShareLinksContract(makeBackend);
    describeDevicesContract(makeBackend);
  });
}
