import { FIDELITY_MODES } from '../ir.js';
import { attr } from './attribute-entry.js';

const ALL: readonly string[] = [];
const BOOL = ['true', 'false'];

/** Every edge attribute the compiler's schema types (edge-attrs-schema.ts), one row each. */
// biome-ignore format: a table, one attribute per line
export const EDGE_ATTRIBUTES = [
  attr('edge', 'label', 'text', ALL, 'The option a gate offers for this edge ("[A] Approve" gives the key A), and what a preferred_label outcome matches.'),
  attr('edge', 'condition', 'text', ALL, 'When the edge may be taken: outcome=success, outcome!=fail && context.tests=passed, preferred_label=Fix. A true condition is the first step of edge selection; only unconditional edges are chosen by label, suggestion or weight.'),
  attr('edge', 'weight', 'number', ALL, 'Among matching edges the heaviest wins (default 0; ties go to the lexically first target); there is no ascending priority.'),
  attr('edge', 'fidelity', 'text', ALL, "The target's fidelity when entered through this edge; wins over the node's.", { values: FIDELITY_MODES }),
  attr('edge', 'thread_id', 'text', ALL, 'The conversation thread of the target when entered through this edge (fidelity=full).'),
  attr('edge', 'loop_restart', 'boolean', ALL, 'true: taking this edge restarts the loop at its target: completed nodes and outcomes reset, later stage folders go under restart-<n>/; visit and retry counts and the context are kept.', { values: BOOL }),
  attr('edge', 'llm_decide', 'boolean', ALL, "true: the edge is among those the graph's router_model chooses from when no condition matched.", { values: BOOL }),
] as const;
