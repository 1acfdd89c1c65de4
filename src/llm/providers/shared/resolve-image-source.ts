import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join } from 'node:path';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ImagePart } from '../../types.js';

/** An image as providers take it: a remote URL, or inline base64 bytes with their media type. */
export type ImageSource = { kind: 'url'; url: string } | { kind: 'data'; data: string; mediaType: string };

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

function isLocalPath(url: string): boolean {
  return url.startsWith('/') || url.startsWith('./') || url.startsWith('../') || url.startsWith('~');
}

/**
 * Resolves an ImagePart: inline data stays inline (media type defaulting to image/png), a URL that is a local
 * path (`/`, `./`, `~`) is read from disk and inlined, since no provider can fetch the caller's files.
 * Shared by every adapter. Synchronous: Anthropic's message conversion is, and images are small.
 */
export function resolveImageSource(part: ImagePart, provider: string): ImageSource {
  if (part.data !== undefined)
    return { kind: 'data', data: part.data, mediaType: part.mediaType ?? 'image/png' };
  if (part.url === undefined) {
    throw new InvalidRequestError(`${provider}: an image part needs a url or data`, { provider });
  }
  if (!isLocalPath(part.url)) return { kind: 'url', url: part.url };
  const path = part.url.startsWith('~') ? join(homedir(), part.url.slice(1)) : part.url;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new InvalidRequestError(`${provider}: cannot read image file ${part.url}`, { provider, cause });
  }
  const mediaType = part.mediaType ?? MEDIA_TYPES[extname(path).toLowerCase()] ?? 'image/png';
  return { kind: 'data', data: bytes.toString('base64'), mediaType };
}
