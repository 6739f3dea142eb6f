/**
 * What the error panel and the error line show: the catalogue's sentences only, never an error's own text
 * (an adapter's, Postgres' "Failing row contains …", a URL with its credentials).
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, test } from 'vitest';
import { authError, postgrestError } from '../backend/supabase/supabase-errors';
import { AppError } from '../lib/app-error';
import { errorText } from '../lib/error-messages';
import { displayName, parseField } from '../lib/validation';
import { ErrorLine, ErrorPanel } from './error-panel';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function shown(node: React.ReactNode): string {
  flushSync(() => root.render(node));
  return host.textContent ?? '';
}

const FAILING_ROW = 'Failing row contains (5d1e…, 9c2f…, Diary of Ana, private notes, null).';
const PRESIGNED = 'https://bucket.example/a/b?X-Amz-Signature=deadbeef';

/** The adapter's mapping of a check-constraint refusal, as PostgREST sends it. */
const checkViolation = () =>
  postgrestError({ code: '23514', message: 'new row for relation "albums" violates check constraint "albums_title_check"', details: FAILING_ROW, hint: null }, 400);

const hostile: [string, () => unknown][] = [
  ['a check violation mapped by the Supabase adapter', checkViolation],
  ['an AppError whose message is the Postgres detail', () => new AppError('validation/invalid', FAILING_ROW)],
  ['a not-found error carrying the detail', () => new AppError('album/not-found', `album/not-found: ${FAILING_ROW}`)],
  ['an unknown error', () => new Error(`${FAILING_ROW} at ${PRESIGNED}`)],
  ['a refusal PostgREST could not classify', () => postgrestError({ code: 'XX000', message: FAILING_ROW, details: FAILING_ROW, hint: null }, 400)],
  ['an auth error the adapter does not know', () => authError({ name: 'AuthApiError', message: FAILING_ROW, status: 418, code: 'teapot' })],
];

describe('the error panel and the error line', () => {
  test.each(hostile)('show only the catalogue for %s', (_, make) => {
    const error = make();
    const code = error instanceof AppError ? error.code : 'backend/unreachable';
    const { title, action } = errorText(code);
    for (const node of [<ErrorPanel error={error} />, <ErrorLine error={error} />]) {
      const text = shown(node);
      expect(text).toContain(title);
      expect(text).toContain(action);
      expect(text).not.toMatch(/Failing row|violates|albums_title_check|private notes|X-Amz|deadbeef|bucket\.example/);
    }
  });

  test('name the field and the rule it breaks, in the catalogue’s words', () => {
    let error: unknown;
    try {
      parseField(displayName, 'x'.repeat(61), 'displayName');
    } catch (e) {
      error = e;
    }
    expect(shown(<ErrorLine error={error} />)).toBe('The name can be at most 60 characters.');
    const taken = authError({ name: 'AuthApiError', message: 'User already registered', status: 422, code: 'user_already_exists' });
    expect(shown(<ErrorLine error={taken} />)).toBe('An account with this email address already exists. Sign in instead.');
  });

  test('render nothing for a cancellation', () => {
    expect(shown(<ErrorPanel error={new DOMException('The operation was aborted.', 'AbortError')} />)).toBe('');
  });
});
