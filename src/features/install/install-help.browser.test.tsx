import axe from 'axe-core';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { installPlatform } from '../../lib/platform';
import type { InstallPlatform } from '../../lib/platform-input';
import { InstallHelp } from './install-help';
import { INSTALL_HELP_KEY, InstallPrompt } from './install-prompt';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
const prompts: InstallPrompt[] = [];

beforeEach(() => localStorage.removeItem(INSTALL_HELP_KEY));
afterEach(() => {
  flushSync(() => root.render(null));
  for (const p of prompts.splice(0)) p.close();
  localStorage.removeItem(INSTALL_HELP_KEY);
});

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadDesktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  instagramIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 618330017)',
  chromeIos16_3: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/109.0.5414.83 Mobile/15E148 Safari/604.1',
  chromeIos17: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
};
const platformOf = (ua: string, maxTouchPoints = 0, standalone = false) => installPlatform({ ua, hints: null, maxTouchPoints, standalone });

/** A new visit: the page starts listening again, with what localStorage kept. */
function visit(platform: InstallPlatform) {
  const prompt = new InstallPrompt(window, localStorage);
  prompts.push(prompt);
  flushSync(() => root.render(<InstallHelp platform={platform} prompt={prompt} />));
  return prompt;
}

/**
 * What Chromium sends when the app can be installed: its prompt() shows the browser's dialog, answered here.
 * Inside flushSync, the screen has answered it when the call returns (visit renders the same way).
 */
function offerPrompt(outcome: 'accepted' | 'dismissed') {
  const calls: string[] = [];
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: () => {
      calls.push('prompt');
      return Promise.resolve();
    },
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  });
  window.dispatchEvent(event);
  return { event, calls };
}

const installButton = () => page.getByRole('button', { name: 'Install app' });

async function seriousViolations(): Promise<string[]> {
  const result = await axe.run(document.body);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('Chromium: the button appears only once the browser offers its prompt, shows it on click, and is gone once accepted', async () => {
  visit(platformOf(UA.chromeWindows));
  await expect.element(installButton()).not.toBeInTheDocument();

  const { event, calls } = offerPrompt('accepted');
  // Kept for our button, without the browser's own banner.
  expect(event.defaultPrevented).toBe(true);
  await expect.element(installButton()).toBeVisible();
  expect(await seriousViolations()).toEqual([]);

  await userEvent.click(installButton());
  expect(calls).toEqual(['prompt']);
  await expect.element(installButton()).not.toBeInTheDocument();
});

test('Chromium: dismissing the button hides it and it stays hidden on later visits, even when the browser offers again', async () => {
  visit(platformOf(UA.chromeWindows));
  offerPrompt('accepted');
  await expect.element(installButton()).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Don’t suggest installing again' }));
  await expect.element(installButton()).not.toBeInTheDocument();

  flushSync(() => root.render(null));
  visit(platformOf(UA.chromeWindows));
  const { calls } = flushSync(() => offerPrompt('accepted'));
  await expect.element(installButton()).not.toBeInTheDocument();
  expect(calls).toEqual([]);
});

test('Chromium: turning the browser’s prompt down counts as a dismissal', async () => {
  visit(platformOf(UA.chromeWindows));
  const { calls } = offerPrompt('dismissed');
  await userEvent.click(installButton());
  expect(calls).toEqual(['prompt']);
  await expect.element(installButton()).not.toBeInTheDocument();
  flushSync(() => root.render(null));
  visit(platformOf(UA.chromeWindows));
  flushSync(() => offerPrompt('accepted'));
  await expect.element(installButton()).not.toBeInTheDocument();
});

test('installed from the browser’s own menu (appinstalled), the button goes and does not come back', async () => {
  visit(platformOf(UA.chromeWindows));
  offerPrompt('accepted');
  await expect.element(installButton()).toBeVisible();
  window.dispatchEvent(new Event('appinstalled'));
  await expect.element(installButton()).not.toBeInTheDocument();

  flushSync(() => root.render(null));
  visit(platformOf(UA.iphone, 5));
  await expect.element(installButton()).not.toBeInTheDocument();
});

test('running as the installed app, there is no install help, prompt or not', async () => {
  visit(platformOf(UA.iphone, 5, true));
  await expect.element(page.getByRole('button', { name: /install/i })).not.toBeInTheDocument();
  flushSync(() => offerPrompt('accepted'));
  await expect.element(installButton()).not.toBeInTheDocument();
});

test('iPhone Safari: the button opens the Share → Add to Home Screen steps with the iOS limits; no accessibility faults', async () => {
  visit(platformOf(UA.iphone, 5));
  await userEvent.click(installButton());
  const sheet = page.getByRole('dialog', { name: 'Add Shoebox to your Home Screen' });
  await expect.element(sheet).toBeVisible();
  const steps = sheet.getByRole('listitem');
  await expect.element(steps.nth(0)).toHaveTextContent(/Tap the Share button in the bar at the bottom of the screen/);
  await expect.element(steps.nth(1)).toHaveTextContent(/Add to Home Screen/);
  await expect.element(sheet).toHaveTextContent(/Other apps cannot share photos into Shoebox/);
  await expect.element(sheet).toHaveTextContent(/deleted after 7 days of browsing without visiting it/);
  expect(await seriousViolations()).toEqual([]);

  await userEvent.click(sheet.getByRole('button', { name: 'Close' }));
  await expect.element(sheet).not.toBeInTheDocument();
  await expect.element(installButton()).toHaveFocus();
});

test('iPad in desktop mode (a Mac user agent with a touch screen) gets the iPad steps; "Don’t show again" is kept', async () => {
  visit(platformOf(UA.ipadDesktop, 5));
  await userEvent.click(installButton());
  const sheet = page.getByRole('dialog', { name: 'Add Shoebox to your Home Screen' });
  await expect.element(sheet).toHaveTextContent(/at the top, beside the address bar/);
  await userEvent.click(sheet.getByRole('button', { name: 'Don’t show again' }));
  await expect.element(sheet).not.toBeInTheDocument();
  await expect.element(installButton()).not.toBeInTheDocument();

  flushSync(() => root.render(null));
  visit(platformOf(UA.ipadDesktop, 5));
  await expect.element(installButton()).not.toBeInTheDocument();
});

test('Firefox on a computer: an explanation instead of steps; no accessibility faults', async () => {
  visit(platformOf(UA.firefoxWindows));
  await userEvent.click(installButton());
  const sheet = page.getByRole('dialog', { name: 'Installing Shoebox' });
  await expect.element(sheet).toHaveTextContent(/Firefox on a computer does not install websites as apps/);
  await expect.element(sheet.getByRole('listitem')).not.toBeInTheDocument();
  expect(await seriousViolations()).toEqual([]);
});

test('Chromium without its prompt shows nothing (not installable yet, or installed already)', async () => {
  visit(platformOf(UA.chromeWindows));
  await expect.element(page.getByRole('button', { name: /install/i })).not.toBeInTheDocument();
});

test('each other browser gets what applies to it, and none of it has serious accessibility violations', async () => {
  const cases: [string, string, RegExp][] = [
    [UA.instagramIos, 'Open Shoebox in your browser to install it', /inside Instagram, which cannot install it\. Open this page in Safari/],
    [UA.chromeIos16_3, 'Add Shoebox to your Home Screen', /only Safari can add Shoebox to the Home Screen/],
    [UA.chromeIos17, 'Add Shoebox to your Home Screen', /Tap the Share button of Chrome/],
    [UA.samsung, 'Add Shoebox to your home screen', /Add page to, then Home screen/],
  ];
  for (const [ua, title, text] of cases) {
    visit(platformOf(ua, 5));
    await userEvent.click(installButton());
    const sheet = page.getByRole('dialog', { name: title });
    await expect.element(sheet).toHaveTextContent(text);
    expect(await seriousViolations(), title).toEqual([]);
    await userEvent.click(sheet.getByRole('button', { name: 'Close' }));
    await expect.element(sheet).not.toBeInTheDocument();
    flushSync(() => root.render(null));
  }
});
