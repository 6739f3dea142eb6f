import { describe, expect, it } from 'vitest';
import { AppError, isAbortError, stripQueryStrings, toAppError } from './app-error';

describe('AppError', () => {
  it('keeps its code and survives a structured-clone round trip as JSON', () => {
    const e = new AppError('share/rate-limited', 'Too many attempts', { retryAfterMs: 9000 });
    expect(e.retryable).toBe(true);
    const back = AppError.fromJSON(structuredClone(e.toJSON()));
    expect(back.code).toBe('share/rate-limited');
    expect(back.retryAfterMs).toBe(9000);
  });

  it('never carries a presigned query string in its message', () => {
    const e = new AppError('storage/denied', 'PUT https://b.example/k?X-Amz-Signature=abc&X-Amz-Credential=x failed');
    expect(e.message).toBe('PUT https://b.example/k failed');
    expect(stripQueryStrings('see blob:http://x/y?a=1 now')).toBe('see blob:http://x/y now');
  });

  it('tells cancellations apart from failures', () => {
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(toAppError(new Error('boom')).code).toBe('backend/unreachable');
    const original = new AppError('upload/empty', 'empty');
    expect(toAppError(original)).toBe(original);
  });
});
