import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NotifySettings } from '../server/notify/notify-settings.js';
import type { NotifyFormat } from '../server/notify/webhook-body.js';
import { AttractorError } from '../shared/errors.js';

/** `--notify …` as commander hands them over, for `serve` and `worker`. */
export interface NotifyFlags {
  notify?: string[];
  notifySecretFile?: string;
  notifyFormat?: string;
  publicUrl?: string;
}

const isFormat = (format: string): format is NotifyFormat => format === 'json' || format === 'slack';

/**
 * The notification settings the flags name, or undefined without `--notify`. Every URL must be http(s),
 * and a secret is required: a receiver that cannot check the signature cannot tell our webhook from anyone's.
 */
export function notifySettings(flags: NotifyFlags, cwd: string): NotifySettings | undefined {
  const urls = flags.notify ?? [];
  if (urls.length === 0) {
    if (flags.notifySecretFile !== undefined || flags.notifyFormat !== undefined)
      throw new AttractorError('BAD_FLAG', '--notify-secret-file and --notify-format need --notify URL.');
    return undefined;
  }
  for (const url of urls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:')
      throw new AttractorError('BAD_FLAG', `--notify ${JSON.stringify(url)} is not an http(s) URL.`);
  }
  const format = flags.notifyFormat ?? 'json';
  if (!isFormat(format))
    throw new AttractorError('BAD_FLAG', `--notify-format must be json or slack, got "${format}".`);
  return {
    urls,
    secret: readSecret(flags.notifySecretFile, cwd),
    format,
    ...(flags.publicUrl !== undefined ? { publicUrl: flags.publicUrl.replace(/\/+$/, '') } : {}),
  };
}

function readSecret(file: string | undefined, cwd: string): string {
  if (file === undefined)
    throw new AttractorError(
      'BAD_FLAG',
      '--notify needs --notify-secret-file FILE: every webhook is signed with the secret in it (x-attractor-signature), so receivers can tell it is ours.',
    );
  const at = path.resolve(cwd, file);
  let secret: string;
  try {
    secret = readFileSync(at, 'utf8').trim();
  } catch (error) {
    throw new AttractorError('BAD_FLAG', `--notify-secret-file ${file}: ${(error as Error).message}.`);
  }
  if (secret.length < 16)
    throw new AttractorError(
      'BAD_FLAG',
      `--notify-secret-file ${file} holds ${secret.length === 0 ? 'nothing' : 'under 16 characters'}: put a long random secret in it.`,
    );
  return secret;
}
