import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Menu, MenuItem } from './menu';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function Harness() {
  const [picked, setPicked] = useState('nothing');
  return (
    <>
      <Menu trigger={<button type="button">Sort</button>}>
        <MenuItem onSelect={() => setPicked('newest')}>Newest first</MenuItem>
        <MenuItem onSelect={() => setPicked('oldest')}>Oldest first</MenuItem>
        <MenuItem disabled onSelect={() => setPicked('size')}>Largest first</MenuItem>
        <MenuItem onSelect={() => setPicked('name')}>By name</MenuItem>
      </Menu>
      <p>Picked: {picked}</p>
    </>
  );
}

test('the menu is worked by keyboard: Enter opens it on its first item, arrows skip what is disabled, Enter picks, focus returns', async () => {
  flushSync(() => root.render(<Harness />));
  const button = page.getByRole('button', { name: 'Sort' });
  await expect.element(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect.element(button).toHaveAttribute('aria-expanded', 'false');
  const buttonEl = button.element() as HTMLElement;
  buttonEl.focus();

  await userEvent.keyboard('{Enter}');
  const menu = page.getByRole('menu', { name: 'Sort' });
  await expect.element(menu).toBeVisible();
  // While the menu is open the rest of the page, its button too, is hidden from assistive technology.
  expect(buttonEl.getAttribute('aria-expanded')).toBe('true');
  await expect.element(menu.getByRole('menuitem', { name: 'Newest first' })).toHaveFocus();

  await userEvent.keyboard('{ArrowDown}');
  await expect.element(menu.getByRole('menuitem', { name: 'Oldest first' })).toHaveFocus();
  await userEvent.keyboard('{ArrowDown}');
  await expect.element(menu.getByRole('menuitem', { name: 'By name' })).toHaveFocus();
  await userEvent.keyboard('{Enter}');

  await expect.element(page.getByText('Picked: name')).toBeVisible();
  await expect.element(menu).not.toBeInTheDocument();
  await expect.element(button).toHaveFocus();
});

test('Escape closes the menu without picking, back onto its button; a click on an item picks it', async () => {
  flushSync(() => root.render(<Harness />));
  const button = page.getByRole('button', { name: 'Sort' });
  await userEvent.click(button);
  const menu = page.getByRole('menu', { name: 'Sort' });
  await expect.element(menu).toBeVisible();
  await userEvent.keyboard('{ArrowDown}');
  await userEvent.keyboard('{Escape}');
  await expect.element(menu).not.toBeInTheDocument();
  await expect.element(button).toHaveFocus();
  await expect.element(page.getByText('Picked: nothing')).toBeVisible();

  await userEvent.click(button);
  await userEvent.click(page.getByRole('menuitem', { name: 'Oldest first' }));
  await expect.element(page.getByText('Picked: oldest')).toBeVisible();
  await expect.element(menu).not.toBeInTheDocument();
});
