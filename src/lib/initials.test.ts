import { expect, it } from 'vitest';
import { initials } from './initials';

it('takes the first letter of the first two words, whole characters, upper-cased; "?" for no name', () => {
  expect(initials('Ana Lima')).toBe('AL');
  expect(initials('  ben  ')).toBe('B');
  expect(initials('Dee Dee Ramone')).toBe('DD');
  expect(initials('émile zola')).toBe('ÉZ');
  // A character outside the Basic Multilingual Plane stays whole, not half a surrogate pair.
  expect(initials('𝒜da Byron')).toBe('𝒜B');
  expect(initials('   ')).toBe('?');
});
