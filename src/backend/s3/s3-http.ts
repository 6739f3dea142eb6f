/**
 * Sends one signed S3 request. In a browser it uses XMLHttpRequest, the one API that reports the bytes of a
 * request body as they leave (fetch cannot); a Blob body is streamed from disk by the browser, never copied
 * into the page's memory. Elsewhere (Node: tests, benchmarks) it uses fetch.
 */
import { abortError } from '../../lib/app-error';
import type { SignedRequest } from './s3-signer';

export interface S3Response {
  status: number;
  header(name: string): string | null;
  /** The body as text (error documents, XML results); empty for HEAD and for blob answers. */
  text: string;
  blob?: Blob;
}

export interface SendOptions {
  body?: Blob | string;
  signal?: AbortSignal;
  /** Bytes of the request body sent so far. */
  onUploadProgress?: (loaded: number) => void;
  responseType?: 'text' | 'blob';
}

/** The request never got an HTTP answer: connection refused or cut, DNS, TLS, or a CORS refusal. */
export class S3NetworkError extends Error {
  constructor(
    readonly url: string,
    /** Body bytes the browser reported sent before the failure (a CORS refusal sends none). */
    readonly bytesSent: number,
  ) {
    super(`No answer from ${new URL(url).origin}`);
    this.name = 'S3NetworkError';
  }
}

export type S3Send = (req: SignedRequest, opts?: SendOptions) => Promise<S3Response>;

export const sendS3: S3Send = (req, opts = {}) =>
  typeof XMLHttpRequest === 'function' ? sendXhr(req, opts) : sendFetch(req, opts);

function sendXhr(req: SignedRequest, opts: SendOptions): Promise<S3Response> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    let sent = 0;
    const onAbort = () => xhr.abort();
    const done = () => opts.signal?.removeEventListener('abort', onAbort);
    xhr.open(req.method, req.url);
    for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = opts.responseType === 'blob' ? 'blob' : 'text';
    if (opts.onUploadProgress) {
      const report = opts.onUploadProgress;
      xhr.upload.onprogress = (e) => {
        sent = e.loaded;
        report(e.loaded);
      };
    }
    xhr.onload = () => {
      done();
      const status = xhr.status;
      const header = (name: string) => xhr.getResponseHeader(name);
      if (xhr.responseType !== 'blob') return resolve({ status, header, text: xhr.responseText });
      const blob = xhr.response as Blob;
      if (status >= 200 && status < 300) return resolve({ status, header, text: '', blob });
      // An error answer asked for as a blob still carries its XML document: read it as text.
      blob.text().then(
        (text) => resolve({ status, header, text }),
        () => resolve({ status, header, text: '' }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new S3NetworkError(req.url, sent));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(opts.body ?? null);
  });
}

async function sendFetch(req: SignedRequest, opts: SendOptions): Promise<S3Response> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(opts.body === undefined ? {} : { body: opts.body }),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch {
    if (opts.signal?.aborted) throw abortError();
    throw new S3NetworkError(req.url, 0);
  }
  try {
    const ok = res.status >= 200 && res.status < 300;
    const blob = ok && opts.responseType === 'blob' ? await res.blob() : undefined;
    const text = blob ? '' : await res.text();
    if (opts.body !== undefined && ok) opts.onUploadProgress?.(typeof opts.body === 'string' ? opts.body.length : opts.body.size);
    return { status: res.status, header: (name) => res.headers.get(name), text, ...(blob ? { blob } : {}) };
  } catch {
    if (opts.signal?.aborted) throw abortError();
    throw new S3NetworkError(req.url, 0);
  }
}
