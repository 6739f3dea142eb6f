/**
 * Devices on the local backend: albums live in this browser and nobody signs in, so the one device there can
 * be is this one. It is listed once touched (the devices list touches it as it reads it) and kept only while
 * the page runs. There is no session to end, so signing devices out changes nothing.
 */
import { throwIfAborted } from '../../lib/app-error';
import { checkDeviceInput } from '../../lib/device-input';
import type { CallOptions, DevicesPort } from '../ports';
import type { Device, DeviceInput } from '../../domain/entities';

export class LocalDevices implements DevicesPort {
  private device: Device | null = null;

  // async: a refusal is a rejected promise, as from every other port call.
  async listDevices(opts: CallOptions = {}): Promise<Device[]> {
    throwIfAborted(opts.signal);
    return this.device ? [{ ...this.device }] : [];
  }

  async touchDevice(input: DeviceInput, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    const d = checkDeviceInput(input);
    // One browser, one device: a new id (its storage was cleared) replaces the old one.
    this.device = { ...d, lastSeenAt: new Date().toISOString(), current: true };
  }

  async signOutDevice(_deviceId: string, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
  }

  async signOutOtherDevices(opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
  }
}
