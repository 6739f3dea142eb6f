import { afterEach, expect, it } from 'vitest';
import { hasTypedText } from './typed-text';

afterEach(() => {
  document.body.innerHTML = '';
});

function add(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  document.body.append(box);
  return box;
}

it('a page with nothing typed can reload', () => {
  add('<input type="text" value=""><textarea></textarea><input type="checkbox" checked>');
  expect(hasTypedText(document)).toBe(false);
});

it('a comment being written holds the reload, focused or not', () => {
  const box = add('<textarea aria-label="Comment"></textarea>');
  box.querySelector('textarea')!.value = 'Lovely light in this one';
  expect(hasTypedText(document)).toBe(true);
});

it('a field being typed in holds the reload; the same field left with its saved value does not', () => {
  const box = add('<input type="text" aria-label="Title" value="Summer"><button>Other</button>');
  const input = box.querySelector('input')!;
  expect(hasTypedText(document)).toBe(false);
  input.focus();
  expect(hasTypedText(document)).toBe(true);
  box.querySelector('button')!.focus();
  expect(hasTypedText(document)).toBe(false);
});

it('an open dialog with a form holds the reload', () => {
  add('<div role="dialog" aria-label="New album"><input type="text" aria-label="Title"></div>');
  expect(hasTypedText(document)).toBe(true);
});
