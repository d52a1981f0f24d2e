import type { FastifyReply } from 'fastify';

/** A stored file as the routes that serve one load it. */
export interface StoredFile {
  filename: string;
  content_type: string;
  data: Buffer;
}

/** `Content-Disposition` with an ASCII fallback name and the exact UTF-8 one (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a stored file's original bytes as a download: its own content type (never
 * sniffed by the browser), its name, and its length.
 */
export function sendStoredFile(reply: FastifyReply, file: StoredFile) {
  return reply
    .type(file.content_type)
    .header('Content-Disposition', contentDisposition(file.filename))
    .header('Content-Length', file.data.length)
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.data);
}
