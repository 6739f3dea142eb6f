/**
 * The DevicesPort contract: signed-in devices that every backend shares: a device touched is
 * listed as the current one with what it said of itself, touching again brings it up to date (one row), input
 * outside the rules is refused before anything is stored, and signing out a device nobody has, or all other
 * devices when there are none, changes nothing. Several devices of one account, another account's devices
 * and a signed-out device's refresh are tested per backend (tests/db/devices.test.ts, tests/db/devices-wire.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import type { DeviceInput } from '../../domain/entities';
import { clockPasses, expectAppError } from './contract-fixtures';

const phone = (): DeviceInput => ({ id: crypto.randomUUID(), label: 'Chrome 131 on Android, Pixel 8', kind: 'mobile', installed: false });

export function describeDevicesContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('devices', () => {
    it('lists the device touched as the current one, with its label, kind, whether installed and when seen', async () => {
      const b = await makeBackend();
      expect(await b.devices.listDevices()).toEqual([]);
      const input = phone();
      const before = Date.now();
      await b.devices.touchDevice(input);
      const [device, ...more] = await b.devices.listDevices();
      expect(more).toEqual([]);
      expect(device).toMatchObject({ id: input.id, label: input.label, kind: 'mobile', installed: false, current: true });
      const seen = new Date(device?.lastSeenAt ?? 0).getTime();
      expect(Math.abs(seen - before)).toBeLessThan(60_000);
    });

    it('brings the device up to date when touched again, keeping one row', async () => {
      const b = await makeBackend();
      const input = phone();
      await b.devices.touchDevice(input);
      const first = (await b.devices.listDevices())[0]?.lastSeenAt ?? '';
      await clockPasses(first);
      await b.devices.touchDevice({ ...input, label: 'Chrome 132 on Android, Pixel 8', installed: true });
      const list = await b.devices.listDevices();
      expect(list.map((d) => [d.id, d.label, d.installed, d.current])).toEqual([[input.id, 'Chrome 132 on Android, Pixel 8', true, true]]);
      expect(new Date(list[0]?.lastSeenAt ?? 0).getTime()).toBeGreaterThan(new Date(first).getTime());
    });

    it('refuses a label or kind outside the rules (validation/invalid, with the field) and stores nothing', async () => {
      const b = await makeBackend();
      const cases: [DeviceInput, string][] = [
        [{ ...phone(), label: '' }, 'label'],
        [{ ...phone(), label: 'x'.repeat(121) }, 'label'],
        [{ ...phone(), label: ' padded ' }, 'label'],
        [{ ...phone(), label: 'bell\u0007' }, 'label'],
        [{ ...phone(), kind: 'watch' as DeviceInput['kind'] }, 'kind'],
        [{ ...phone(), id: 'not-an-id' }, 'id'],
      ];
      for (const [input, field] of cases) {
        const e = await expectAppError(b.devices.touchDevice(input), 'validation/invalid');
        expect(e.details, field).toMatchObject({ field });
      }
      expect(await b.devices.listDevices()).toEqual([]);
    });

    it('signing out a device nobody has, or every other device when there is none, changes nothing', async () => {
      const b = await makeBackend();
      const input = phone();
      await b.devices.touchDevice(input);
      await b.devices.signOutDevice(crypto.randomUUID());
      await b.devices.signOutOtherDevices();
      expect((await b.devices.listDevices()).map((d) => [d.id, d.current])).toEqual([[input.id, true]]);
    });
  });
}
