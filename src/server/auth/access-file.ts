import { readFileSync } from 'node:fs';
import { type Document, isMap, isNode, LineCounter, parseDocument } from 'yaml';
import * as z from 'zod';
import { AttractorError } from '../../shared/errors.js';
import { type Role, RoleSchema } from './role.js';

/**
 * `--access FILE`: the roles of people who sign in with OpenID Connect, by user (their email, or their
 * subject) and by group (the provider's `groups` claim). YAML or JSON; anyone not named has no role.
 */
export const AccessSchema = z
  .object({
    users: z.record(z.string().min(1), z.array(RoleSchema).min(1)).default({}),
    groups: z.record(z.string().min(1), z.array(RoleSchema).min(1)).default({}),
  })
  .strict();
export type Access = z.output<typeof AccessSchema>;

/** Who signed in, as the access file can name them. */
export interface SignedInPerson {
  subject: string;
  email?: string | undefined;
  groups: readonly string[];
}

/** The roles the file grants a person: theirs by subject or email, and every one of their groups'. */
export function rolesFor(access: Access, person: SignedInPerson): Role[] {
  const granted = [
    ...(access.users[person.subject] ?? []),
    ...(person.email !== undefined ? (access.users[person.email] ?? []) : []),
    ...person.groups.flatMap((group) => access.groups[group] ?? []),
  ];
  return [...new Set(granted)];
}

/** Reads and checks an access file; a mistake stops the server naming `file:line` and what is wrong. */
export function readAccessFile(file: string): Access {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AttractorError(
      'BAD_ACCESS_FILE',
      `--access ${file}: cannot read it (${(error as Error).message}).`,
    );
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    throw badAccess(
      file,
      lines.linePos(syntax.pos[0]).line,
      `not YAML or JSON: ${syntax.message.split('\n')[0]}`,
    );
  }
  const parsed = AccessSchema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = [...(issue?.path ?? []), ...(issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])];
  const where = at.length > 0 ? ` (at ${at.join('.')})` : '';
  const what =
    issue?.code === 'invalid_value'
      ? `unknown role ${JSON.stringify(doc.getIn(at))}: roles are ${RoleSchema.options.join(', ')}`
      : (issue?.message ?? 'invalid');
  throw badAccess(file, lineOf(doc, at, lines), `${what}${where}`);
}

/** The line of the deepest node of `path` the document has (1 when none: the file as a whole). */
function lineOf(doc: Document, path: readonly PropertyKey[], lines: LineCounter): number {
  for (let depth = path.length; depth > 0; depth--) {
    const keys = path.slice(0, depth);
    const parent = keys.length > 1 ? doc.getIn(keys.slice(0, -1), true) : doc.contents;
    // A key's own line: an unknown key, or an entry whose value is on the lines after it.
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item) => isNode(item.key) && String(item.key.toJSON()) === String(keys.at(-1)),
      );
      if (pair && isNode(pair.key) && pair.key.range) return lines.linePos(pair.key.range[0]).line;
    }
    const node = doc.getIn(keys, true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

const badAccess = (file: string, line: number, what: string): AttractorError =>
  new AttractorError(
    'BAD_ACCESS_FILE',
    `${file}:${line}: ${what}. The server does not start with a wrong access file.`,
  );
