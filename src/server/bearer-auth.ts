import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * True when the `Authorization` header carries `Bearer <token>`. Both sides are hashed first so the
 * comparison takes the same time whatever the lengths (timingSafeEqual needs equal lengths).
 */
export function isAuthorized(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
