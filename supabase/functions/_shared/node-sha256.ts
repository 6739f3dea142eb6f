/** SHA-256 and HMAC-SHA-256 from node:crypto in the shape the AWS signers expect (`new Sha256(secret?)`). */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytes = (data: SourceData): Uint8Array | string =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

export class NodeSha256 {
  #secret: SourceData | undefined;
  #hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.#secret = secret;
    this.#hash = this.#fresh();
  }

  #fresh(): Hash | Hmac {
    return this.#secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.#secret));
  }

  update(data: SourceData): void {
    this.#hash.update(bytes(data));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }

  reset(): void {
    this.#hash = this.#fresh();
  }
}
