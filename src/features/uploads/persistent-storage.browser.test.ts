import { afterEach, expect, it } from 'vitest';
import { askPersistentStorageOnce } from './persistent-storage';

const storage = navigator.storage;
const original = { persist: storage.persist.bind(storage), persisted: storage.persisted.bind(storage) };

afterEach(() => {
  storage.persist = original.persist;
  storage.persisted = original.persisted;
  localStorage.removeItem('shoebox:persist-asked');
});

it('asks the browser to keep the site’s storage once, and a refusal is swallowed', async () => {
  localStorage.removeItem('shoebox:persist-asked');
  let asked = 0;
  // Asking starts by checking, at once: a call that would ask again shows here without waiting.
  let checked = 0;
  storage.persisted = () => {
    checked += 1;
    return Promise.resolve(false);
  };
  storage.persist = () => {
    asked += 1;
    return Promise.resolve(false);
  };
  askPersistentStorageOnce();
  askPersistentStorageOnce();
  await expect.poll(() => asked).toBe(1);
  askPersistentStorageOnce();
  expect(checked).toBe(1);
  expect(asked).toBe(1);
});
