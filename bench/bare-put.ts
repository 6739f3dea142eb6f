// The browser's floor for a bucket upload, shared by the benchmark pages: one XMLHttpRequest PUT to a URL
// presigned elsewhere, with no engine around it.

/** PUTs `body` to `url`; resolves with the answer's ETag. */
export function barePut(url: string, body: Blob): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.onload = () => (xhr.status === 200 ? resolve(xhr.getResponseHeader('ETag') ?? '') : reject(new Error(`PUT answered ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('PUT got no answer'));
    xhr.send(body);
  });
}
