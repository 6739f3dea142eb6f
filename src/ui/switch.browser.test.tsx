import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { Switch } from './switch';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function Harness({ disabled }: { disabled?: boolean }) {
  const [on, setOn] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <Switch label="Members can add files" hint="Viewers only look." checked={on} onCheckedChange={setOn} disabled={disabled} />
      <p>Adding is {on ? 'on' : 'off'}</p>
    </>
  );
}

test('the switch is reached with Tab, named by its label, and Space flips it both ways', async () => {
  flushSync(() => root.render(<Harness />));
  const toggle = page.getByRole('switch', { name: 'Members can add files' });
  await expect.element(toggle).toHaveAccessibleDescription('Viewers only look.');
  (page.getByRole('button', { name: 'Before' }).element() as HTMLElement).focus();
  await userEvent.keyboard('{Tab}');
  await expect.element(toggle).toHaveFocus();
  await expect.element(toggle).not.toBeChecked();

  await userEvent.keyboard(' ');
  await expect.element(toggle).toBeChecked();
  await expect.element(page.getByText('Adding is on')).toBeVisible();
  await userEvent.keyboard(' ');
  await expect.element(toggle).not.toBeChecked();
  await expect.element(page.getByText('Adding is off')).toBeVisible();

  // A click on the label flips it too: a bigger target on a phone.
  await userEvent.click(page.getByText('Members can add files'));
  await expect.element(toggle).toBeChecked();
});

test('a disabled switch does not flip', async () => {
  flushSync(() => root.render(<Harness disabled />));
  const toggle = page.getByRole('switch', { name: 'Members can add files' });
  await expect.element(toggle).toBeDisabled();
  await userEvent.click(toggle, { force: true });
  await expect.element(toggle).not.toBeChecked();
  await expect.element(page.getByText('Adding is off')).toBeVisible();
});
