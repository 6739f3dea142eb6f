/**
 * Signed-in devices over the SQL functions of 20261127100000_device_sessions.sql: touch_device stamps the row
 * with the caller's Auth session and the server's time, list_devices shows the caller's devices still signed
 * in, sign_out_device ends one of their sessions. "All other devices" is GoTrue's own sign-out of the other
 * sessions; their rows leave the list with their sessions.
 */
import * as z from 'zod/mini';
import { throwIfAborted } from '../../lib/app-error';
import { checkDeviceInput } from '../../lib/device-input';
import { authError } from './supabase-errors';
import type { CallOptions, DevicesPort } from '../ports';
import type { Device, DeviceInput } from '../../domain/entities';
import type { PostgrestCalls } from './supabase-calls';
import { iso, parseRow, rows, text, timestamp } from './supabase-rows';

const DEVICE_ROW = z.object({
  id: text,
  label: text,
  kind: z.custom<Device['kind']>((v) => v === 'desktop' || v === 'mobile' || v === 'tablet', 'Expected desktop, mobile or tablet'),
  installed_pwa: z.boolean(),
  last_seen_at: timestamp,
  current: z.boolean(),
});

export function toDevice(row: unknown): Device {
  const r = parseRow(DEVICE_ROW, row, 'a device');
  return { id: r.id, label: r.label, kind: r.kind, installed: r.installed_pwa, lastSeenAt: iso(r.last_seen_at), current: r.current };
}

export class SupabaseDevices implements DevicesPort {
  constructor(private readonly calls: PostgrestCalls) {}

  async listDevices(opts: CallOptions = {}): Promise<Device[]> {
    return rows(await this.calls.send(this.calls.rpc('list_devices', {}), opts.signal)).map(toDevice);
  }

  async touchDevice(input: DeviceInput, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    const d = checkDeviceInput(input);
    await this.calls.send(this.calls.rpc('touch_device', { p_id: d.id, p_label: d.label, p_kind: d.kind, p_installed: d.installed }), opts.signal);
  }

  async signOutDevice(deviceId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('sign_out_device', { p_id: deviceId }), opts.signal);
  }

  async signOutOtherDevices(opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    const { error } = await this.calls.client.auth.signOut({ scope: 'others' });
    if (error) throw authError(error);
  }
}
