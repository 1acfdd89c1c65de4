import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

/** The encoding to answer in: Brotli when the client takes it, else gzip, else none. */
export function acceptedEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  const offered = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => q === undefined || !/^\s*q=0(\.0*)?\s*$/.test(q))
    .map(([name]) => name?.trim().toLowerCase());
  if (offered.includes('br')) return 'br';
  if (offered.includes('gzip')) return 'gzip';
  return undefined;
}

/**
 * `body` in `encoding`. Brotli at a middling quality: a drawing is compressed per request, and quality
 * 5 takes a 130 KB SVG to about a tenth in a few milliseconds (11 would take far longer for little more).
 */
export function compressBody(body: Buffer, encoding: ContentEncoding, quality = 5): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } })
    : gzipSync(body, { level: quality >= 9 ? 9 : 6 });
}
