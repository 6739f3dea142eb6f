import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Tabs } from './tabs';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

const items = [
  { value: 'general', title: 'General', content: <button type="button">Rename album</button> },
  { value: 'members', title: 'Members', content: <button type="button">Invite someone</button> },
  { value: 'links', title: 'Share links', content: <button type="button">New link</button> },
];

test('arrow keys move between tabs and show each panel; Tab goes from the tab into its panel', async () => {
  flushSync(() => root.render(<><button type="button">Before</button><Tabs label="Album settings" items={items} /></>));
  const list = page.getByRole('tablist', { name: 'Album settings' });
  await expect.element(list).toBeVisible();
  await expect.element(page.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
  await expect.element(page.getByRole('tabpanel', { name: 'General' })).toBeVisible();

  (page.getByRole('button', { name: 'Before' }).element() as HTMLElement).focus();
  await userEvent.keyboard('{Tab}');
  await expect.element(page.getByRole('tab', { name: 'General' })).toHaveFocus();

  await userEvent.keyboard('{ArrowRight}');
  await expect.element(page.getByRole('tab', { name: 'Members' })).toHaveFocus();
  await expect.element(page.getByRole('tab', { name: 'Members' })).toHaveAttribute('aria-selected', 'true');
  await expect.element(page.getByRole('tabpanel', { name: 'Members' })).toBeVisible();
  await expect.element(page.getByRole('button', { name: 'Rename album' })).not.toBeInTheDocument();

  await userEvent.keyboard('{End}');
  await expect.element(page.getByRole('tab', { name: 'Share links' })).toHaveFocus();
  await userEvent.keyboard('{ArrowRight}');
  await expect.element(page.getByRole('tab', { name: 'General' })).toHaveFocus();
  await userEvent.keyboard('{ArrowLeft}');
  await expect.element(page.getByRole('tabpanel', { name: 'Share links' })).toBeVisible();

  // One Tab stop for the row: the next Tab reaches the panel, then what is in it.
  await userEvent.keyboard('{Tab}');
  await expect.element(page.getByRole('tabpanel', { name: 'Share links' })).toHaveFocus();
  await userEvent.keyboard('{Tab}');
  await expect.element(page.getByRole('button', { name: 'New link' })).toHaveFocus();
});
