import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { ToastProvider, useToast } from './toast';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function CopyButton() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast({ title: 'Link copied', description: 'Paste it anywhere.' })}>
      Copy link
    </button>
  );
}

test('a toast is shown and announced in a status region, and its Close button removes it', async () => {
  flushSync(() => root.render(<ToastProvider><CopyButton /></ToastProvider>));
  await userEvent.click(page.getByRole('button', { name: 'Copy link' }));

  await expect.element(page.getByText('Link copied', { exact: true }), { timeout: 10_000 }).toBeVisible();
  // Screen readers hear it: a polite live region with the text, as it appears.
  await expect
    .poll(() => [...document.querySelectorAll('[role="status"][aria-live="polite"]')].map((e) => e.textContent ?? '').join('|'))
    .toMatch(/Link copied.*Paste it anywhere\./);

  await userEvent.click(page.getByRole('button', { name: 'Close' }));
  await expect.element(page.getByText('Link copied', { exact: true })).not.toBeInTheDocument();
});

test('a toast goes away on its own', async () => {
  flushSync(() => root.render(<ToastProvider duration={300}><CopyButton /></ToastProvider>));
  await userEvent.click(page.getByRole('button', { name: 'Copy link' }));
  await expect.element(page.getByText('Link copied', { exact: true }), { timeout: 10_000 }).toBeVisible();
  // Moved away, so the pause-on-hover does not hold it.
  await userEvent.unhover(page.getByRole('button', { name: 'Copy link' }));
  await expect.element(page.getByText('Link copied', { exact: true }), { timeout: 5000 }).not.toBeInTheDocument();
});

function EditButton() {
  const toast = useToast();
  let n = 0;
  return (
    <button type="button" onClick={() => toast({ title: `Edit ${++n}`, key: 'edit', action: { label: 'Undo', altText: 'Edit again', onAction: () => toast({ title: `Undid ${n}` }) } })}>
      Edit
    </button>
  );
}

test('a toast with a key takes the place of the one before it; its action button acts', async () => {
  flushSync(() => root.render(<ToastProvider><EditButton /></ToastProvider>));
  await userEvent.click(page.getByRole('button', { name: 'Edit', exact: true }));
  await userEvent.click(page.getByRole('button', { name: 'Edit', exact: true }));
  await expect.element(page.getByText('Edit 2', { exact: true }), { timeout: 10_000 }).toBeVisible();
  await expect.element(page.getByText('Edit 1', { exact: true })).not.toBeInTheDocument();
  expect(page.getByRole('button', { name: 'Undo' }).elements()).toHaveLength(1);
  await userEvent.click(page.getByRole('button', { name: 'Undo' }));
  await expect.element(page.getByText('Undid 2', { exact: true })).toBeVisible();
});
