/**
 * The roles' names, apart from their schema: `attractor token --role` lists them without loading zod
 * (the CLI's start-up loads only commander).
 */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
