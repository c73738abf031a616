import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '../../contract/routes';

/**
 * Types worth compressing on the fly: text and JSON/XML answers (the review read is JSON of
 * several MB on a long draft). Left out on purpose: `text/event-stream` (live events must reach
 * the browser as written, not held in a compressor's window), and everything already compressed
 * or binary (.docx is a zip, report.pdf, `application/octet-stream` blobs).
 */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)|^text\/csv/u;

/**
 * Compresses API answers (brotli or gzip, as the request accepts) above 1 kB. Hijacked replies
 * (SSE `/events`, the MCP transport) never pass through Fastify's `onSend`, so they are untouched
 * whatever their type. Static assets arrive already compressed from the build (`.br`/`.gz`
 * beside each file) and carry `Content-Encoding`, which the plugin leaves alone.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // The app's files (every route outside the API) were compressed once at build; the few left
  // as they are (under 1 kB, source maps) are not worth compressing on every request. Added
  // before the plugin's own onRoute hook, which reads the flag.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_BASE_PATH}/`) && !route.url.startsWith('/.well-known/')) route.compress ??= false;
  });
  await app.register(fastifyCompress, {
    globalCompression: true,
    // Request bodies are read as sent, as before: inflating them would let a small gzip body
    // grow past the upload limit that Content-Length was checked against.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSIBLE_TYPES,
  });
}
