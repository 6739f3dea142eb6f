import { contentSecurityPolicy } from '../lib/content-security-policy';
import type { RuntimeConfig } from './runtime-config';

/**
 * Adds the exact policy for the backend just configured (see [Note: Content-Security-Policy]): the build's
 * meta may allow any https:/wss: origin when config.json chooses the backend, and the browser enforces
 * every policy a document has, so this one narrows connections, images and media to that backend.
 */
export function narrowContentSecurityPolicy(config: RuntimeConfig, doc: Document = document): void {
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = contentSecurityPolicy({ backend: config.backend, allowedOrigins: config.allowedOrigins });
  doc.head.append(meta);
}
