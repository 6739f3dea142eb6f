#!/usr/bin/env node
// Makes the PNG icons of the web app manifest (public/icons/) from the mark of public/icon.svg, drawn by
// Debian's Chromium, so the icons never drift from the favicon and no image library is needed.
//   node scripts/make-icons.mjs
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs } from './chromium.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'public/icons');
const ink = '#1f2430';
const amber = '#f4b860';

// The box of public/icon.svg without its tile: everything but the first <rect>, in the same 64-unit square.
const iconSvg = readFileSync(join(root, 'public/icon.svg'), 'utf8');
const mark = iconSvg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '').replace(/^<rect[^>]*\/>/, '');
if (!mark.includes('<path')) throw new Error('public/icon.svg no longer starts with its tile <rect>: update make-icons.mjs');

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${body}</svg>`;
// The mark's bounds are x 9–55, y 13–54. Scaled by 0.8 about its centre it reaches 24.6 units from the middle,
// inside the circle of radius 25.6 (40% of the size) that every maskable icon shape keeps.
const inSafeZone = (body) => `<g transform="translate(32 32) scale(0.8) translate(-32 -33.5)">${body}</g>`;
// One colour, with a gap between lid and box and the handle cut out, so the mark still reads when the system
// paints it in its own colour (Android's themed icons use only the alpha channel).
const monochromeMark =
  '<path fill="#fff" d="M9 16a3 3 0 0 1 3-3h40a3 3 0 0 1 3 3v7H9z"/>' +
  '<path fill="#fff" fill-rule="evenodd" d="M12 26h40v24a4 4 0 0 1-4 4H16a4 4 0 0 1-4-4zM28 31h8a2 2 0 0 1 0 4h-8a2 2 0 0 1 0-4z"/>';
// The app's own glyphs (src/ui/icon.tsx, 24-unit strokes) on the app's tile, for the manifest's shortcuts.
const glyphs = {
  'shortcut-add': 'M12 5v14M5 12h14',
  'shortcut-albums': 'M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15 9h.01',
  'shortcut-uploads': 'M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
};
const shortcut = (d) =>
  svg(
    `<rect width="64" height="64" rx="14" fill="${ink}"/>` +
      `<g transform="translate(14 14) scale(1.5)"><path d="${d}" fill="none" stroke="${amber}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></g>`,
  );

const icons = [
  { name: 'icon-192.png', size: 192, svg: iconSvg },
  { name: 'icon-512.png', size: 512, svg: iconSvg },
  { name: 'maskable-192.png', size: 192, svg: svg(`<rect width="64" height="64" fill="${ink}"/>${inSafeZone(mark)}`) },
  { name: 'maskable-512.png', size: 512, svg: svg(`<rect width="64" height="64" fill="${ink}"/>${inSafeZone(mark)}`) },
  { name: 'monochrome-512.png', size: 512, svg: svg(inSafeZone(monochromeMark)) },
  // iOS rounds the corners itself and shows transparency as black: a full square, the mark a little larger.
  { name: 'apple-touch-icon.png', size: 180, svg: svg(`<rect width="64" height="64" fill="${ink}"/><g transform="translate(32 32) scale(0.9) translate(-32 -33.5)">${mark}</g>`) },
  ...Object.entries(glyphs).map(([name, d]) => ({ name: `${name}.png`, size: 96, svg: shortcut(d) })),
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromiumArgs, headless: true });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const icon of icons) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const sized = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<!doctype html><body style="margin:0;background:transparent">${sized}</body>`);
    await page.screenshot({ path: join(out, icon.name), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    console.log(`wrote public/icons/${icon.name} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
