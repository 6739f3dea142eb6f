import { expect } from 'vitest';

/** The album grid's scrolling element. */
export const gridScroller = () => document.querySelector<HTMLElement>('[data-testid="grid-scroller"]');

/** Whether what the scroller shows is drawn: tiles in view and no month still a placeholder there. */
export function screenLoaded(): boolean {
  const el = gridScroller();
  if (!el) return false;
  const view = el.getBoundingClientRect();
  const inView = (e: Element) => {
    const r = e.getBoundingClientRect();
    return r.bottom > view.top && r.top < view.bottom;
  };
  return [...el.querySelectorAll('.tile')].some(inView) && ![...el.querySelectorAll('.grid-placeholder')].some(inView);
}

/**
 * Down the album a few screens at a time, each screen drawn before the next, so that every month is loaded on
 * the way; `each` runs once every screen is drawn.
 */
export async function scrollGridToEnd(each: () => void = () => {}): Promise<void> {
  const el = gridScroller()!;
  while (el.scrollTop + el.clientHeight < el.scrollHeight - 2) {
    el.scrollTop += el.clientHeight * 4;
    await expect.poll(screenLoaded, { timeout: 20_000 }).toBe(true);
    each();
  }
}
