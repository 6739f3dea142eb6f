import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { AlbumInput } from '../../domain/inputs';
import { AppError } from '../../lib/app-error';
import { AlbumFormDialog } from './album-form-dialog';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function Harness({ onSubmit }: { onSubmit: (input: AlbumInput) => Promise<unknown> }) {
  const [open, setOpen] = useState(true);
  return <AlbumFormDialog open={open} onClose={() => setOpen(false)} title="New album" submitLabel="Create album" onSubmit={onSubmit} />;
}

test('Escape while saving keeps the dialog and the typed text, so a failed save is seen and can be retried', async () => {
  let fail: (e: unknown) => void = () => undefined;
  flushSync(() => root.render(<Harness onSubmit={() => new Promise((_, reject) => (fail = reject))} />));
  // The dialog's code loads on first open.
  await expect.poll(() => document.querySelector('[role="dialog"]'), { timeout: 10_000 }).not.toBeNull();
  const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
  const isOpen = () => dialog.isConnected && dialog.getAttribute('data-state') === 'open';
  const title = dialog.querySelector('input[name="title"]') as HTMLInputElement;
  await userEvent.fill(title, 'Summer in Lisbon');
  await userEvent.click(dialog.querySelector('button[type="submit"]') as HTMLButtonElement);
  await expect.poll(() => dialog.querySelector('button[type="submit"]')?.textContent).toBe('Saving…');

  // A key's handlers, and the render they cause, are done when the key press returns.
  await userEvent.keyboard('{Escape}');
  await userEvent.keyboard('{Escape}');
  expect(isOpen()).toBe(true);

  fail(new AppError('backend/unreachable', 'network down'));
  await expect.poll(() => dialog.querySelector('[role="alert"]')?.getAttribute('data-error-code')).toBe('backend/unreachable');
  expect((dialog.querySelector('input[name="title"]') as HTMLInputElement).value).toBe('Summer in Lisbon');
  expect(dialog.querySelector('button[type="submit"]')?.textContent).toBe('Create album');

  // Once the save has settled, Escape closes as usual.
  await userEvent.keyboard('{Escape}');
  await expect.poll(() => isOpen()).toBe(false);
  expect(document.querySelector('[role="dialog"]')).toBeNull();
});
