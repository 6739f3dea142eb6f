import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { DatePicker } from './date-picker';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

const shown = (d: Date) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(d);
const focusedDay = () => document.activeElement?.closest('[data-day]')?.getAttribute('data-day');

function Harness({ min }: { min?: Date }) {
  const [date, setDate] = useState<Date | undefined>(new Date(2026, 2, 10));
  return <DatePicker label="Expires" value={date} onChange={setDate} min={min} />;
}

test('a date is picked by keyboard: the calendar opens on the chosen day, arrows move, Enter picks, focus returns', async () => {
  flushSync(() => root.render(<Harness />));
  const button = page.getByRole('button', { name: `Expires ${shown(new Date(2026, 2, 10))}` });
  (button.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');

  await expect.element(page.getByRole('dialog', { name: 'Expires' })).toBeVisible();
  await expect.poll(focusedDay).toBe('2026-03-10');
  await userEvent.keyboard('{ArrowRight}');
  await expect.poll(focusedDay).toBe('2026-03-11');
  await userEvent.keyboard('{ArrowDown}');
  await expect.poll(focusedDay).toBe('2026-03-18');
  await userEvent.keyboard('{PageDown}');
  await expect.poll(focusedDay).toBe('2026-04-18');
  await userEvent.keyboard('{Enter}');

  await expect.element(page.getByRole('dialog', { name: 'Expires' })).not.toBeInTheDocument();
  const picked = page.getByRole('button', { name: `Expires ${shown(new Date(2026, 3, 18))}` });
  await expect.element(picked).toHaveFocus();
});

test('Escape closes the calendar without a change; days before the earliest allowed cannot be picked', async () => {
  flushSync(() => root.render(<Harness min={new Date(2026, 2, 9)} />));
  const button = page.getByRole('button', { name: `Expires ${shown(new Date(2026, 2, 10))}` });
  await userEvent.click(button);
  await expect.poll(focusedDay).toBe('2026-03-10');
  await userEvent.keyboard('{ArrowLeft}');
  await userEvent.keyboard('{ArrowLeft}');
  await userEvent.keyboard('{Enter}');
  // The 8th is out of reach; the 9th is as far back as it goes.
  await expect.element(page.getByRole('button', { name: `Expires ${shown(new Date(2026, 2, 9))}` })).toHaveFocus();

  await userEvent.click(page.getByRole('button', { name: /^Expires/ }));
  await expect.element(page.getByRole('dialog', { name: 'Expires' })).toBeVisible();
  await userEvent.keyboard('{ArrowRight}');
  await userEvent.keyboard('{Escape}');
  await expect.element(page.getByRole('dialog', { name: 'Expires' })).not.toBeInTheDocument();
  await expect.element(page.getByRole('button', { name: `Expires ${shown(new Date(2026, 2, 9))}` })).toHaveFocus();
});
