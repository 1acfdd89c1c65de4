import { AttractorError } from '../../shared/errors.js';
import type { Role } from './role.js';
import { type Grantee, granteeLabel } from './role-grant.js';

const flag = (grantee: Grantee): string => `--${grantee.kind} ${grantee.id}`;

export const roleAlreadyGranted = (grantee: Grantee, role: Role): AttractorError =>
  new AttractorError(
    'ROLE_ALREADY_GRANTED',
    `${granteeLabel(grantee)} already holds ${role} in this store (attractor role list ${flag(grantee)} shows it).`,
  );

/** The grantee holds no `role` in the store (no role at all, when none is named). */
export const roleNotGranted = (grantee: Grantee, role?: Role): AttractorError =>
  new AttractorError(
    'ROLE_NOT_GRANTED',
    `the store grants ${granteeLabel(grantee)} no ${role === undefined ? '' : `${role} `}role (attractor role list ${flag(grantee)} shows what it grants; a role from --access FILE is changed in that file).`,
  );
