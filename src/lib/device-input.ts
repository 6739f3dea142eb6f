import { AppError } from './app-error';
import type { DeviceInput } from '../domain/entities';

const MAX_LABEL = 120;

/** The rules of a device row (as touch_device checks them), before anything is sent or stored. */
export function checkDeviceInput(input: DeviceInput): DeviceInput {
  const invalid = (field: string, message: string) => new AppError('validation/invalid', message, { details: { field, rule: 'invalid' }, retryable: false });
  if (typeof input.id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.id)) throw invalid('id', 'A device is named by its id.');
  const label = typeof input.label === 'string' ? input.label : '';
  // eslint-disable-next-line no-control-regex
  if (label !== label.trim() || [...label].length < 1 || [...label].length > MAX_LABEL || /[\u0000-\u001f\u007f-\u009f]/.test(label)) {
    throw invalid('label', `A device label is 1 to ${MAX_LABEL} characters.`);
  }
  if (input.kind !== 'desktop' && input.kind !== 'mobile' && input.kind !== 'tablet') throw invalid('kind', 'A device is a desktop, a mobile or a tablet.');
  return { id: input.id, label, kind: input.kind, installed: input.installed === true };
}
