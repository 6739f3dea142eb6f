import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Dialog } from './dialog';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>Rename</button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Rename photo">
        <label>
          Name <input name="name" />
        </label>
        <button type="button" onClick={() => setOpen(false)}>Done</button>
      </Dialog>
    </>
  );
}

test('the dialog opens named by its title, takes focus, keeps Tab inside, and Escape gives focus back to its opener', async () => {
  flushSync(() => root.render(<Harness />));
  const opener = page.getByRole('button', { name: 'Rename' });
  await userEvent.click(opener);

  const dialog = page.getByRole('dialog', { name: 'Rename photo' });
  await expect.element(dialog, { timeout: 10_000 }).toBeVisible();
  await expect.element(dialog.getByLabelText('Name')).toHaveFocus();
  // The page behind is out of reach for assistive technology while the dialog is open.
  await expect.element(page.getByRole('button', { name: 'Before' })).not.toBeInTheDocument();

  await userEvent.keyboard('{Tab}');
  await expect.element(dialog.getByRole('button', { name: 'Done' })).toHaveFocus();
  await userEvent.keyboard('{Tab}');
  await expect.element(dialog.getByLabelText('Name')).toHaveFocus();

  await userEvent.keyboard('{Escape}');
  await expect.element(dialog).not.toBeInTheDocument();
  await expect.element(opener).toHaveFocus();

  // A second time, from a button inside; focus still goes back.
  await userEvent.click(opener);
  await expect.element(dialog).toBeVisible();
  await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
  await expect.element(dialog).not.toBeInTheDocument();
  await expect.element(opener).toHaveFocus();
});

test('a click beside the dialog does not close it, so typed text is not lost', async () => {
  flushSync(() => root.render(<Harness />));
  await userEvent.click(page.getByRole('button', { name: 'Rename' }));
  const dialog = page.getByRole('dialog', { name: 'Rename photo' });
  await expect.element(dialog, { timeout: 10_000 }).toBeVisible();
  await userEvent.fill(dialog.getByLabelText('Name'), 'Beach');
  await userEvent.click(document.querySelector('.dialog-overlay') as HTMLElement, { position: { x: 5, y: 5 }, force: true });
  await expect.element(dialog).toBeVisible();
  await expect.element(dialog.getByLabelText('Name')).toHaveValue('Beach');
});
