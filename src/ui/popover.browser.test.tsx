import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Popover } from './popover';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function Harness() {
  return (
    <>
      <Popover trigger={<button type="button">Share</button>} label="Share link">
        <p>Anyone with the link can view.</p>
        <button type="button">Copy link</button>
      </Popover>
      <button type="button">Elsewhere</button>
    </>
  );
}

test('the popover opens from its button with focus inside, Escape closes it back onto the button', async () => {
  flushSync(() => root.render(<Harness />));
  const button = page.getByRole('button', { name: 'Share' });
  await expect.element(button).toHaveAttribute('aria-expanded', 'false');
  (button.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');

  const panel = page.getByRole('dialog', { name: 'Share link' });
  await expect.element(panel).toBeVisible();
  await expect.element(panel.getByRole('button', { name: 'Copy link' })).toHaveFocus();
  await expect.element(button).toHaveAttribute('aria-expanded', 'true');

  await userEvent.keyboard('{Escape}');
  await expect.element(panel).not.toBeInTheDocument();
  await expect.element(button).toHaveFocus();
});

test('a click elsewhere closes the popover', async () => {
  flushSync(() => root.render(<Harness />));
  await userEvent.click(page.getByRole('button', { name: 'Share' }));
  const panel = page.getByRole('dialog', { name: 'Share link' });
  await expect.element(panel).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Elsewhere' }));
  await expect.element(panel).not.toBeInTheDocument();
});
