import type { AttributeOwner } from './attribute-aliases.js';
import { type AttributeEntry, attr } from './attribute-entry.js';

/**
 * Graphviz's own drawing attributes that pipelines carry for how they look. Attractor ignores them,
 * but knows them, so `xlabel` or `style` is never mistaken for a misspelt `label` or `type`.
 */
const DRAWING: Readonly<Record<AttributeOwner, readonly string[]>> = {
  graph: (
    'bgcolor center charset color comment compound concentrate dpi fillcolor fontcolor fontname ' +
    'fontpath fontsize forcelabels labeljust labelloc layout margin newrank nodesep ordering ' +
    'outputorder overlap pad pencolor penwidth rank rankdir ranksep ratio remincross rotate ' +
    'searchsize size splines style stylesheet tooltip URL href id'
  ).split(' '),
  node: (
    'color colorscheme comment distortion fillcolor fixedsize fontcolor fontname fontsize ' +
    'gradientangle group height href id image imagepos imagescale labelloc margin nojustify ordering ' +
    'orientation penwidth peripheries pos regular sides skew sortv style target tooltip URL width ' +
    'xlabel'
  ).split(' '),
  edge: (
    'arrowhead arrowsize arrowtail color colorscheme comment constraint decorate dir fillcolor ' +
    'fontcolor fontname fontsize headclip headlabel headport href id labelangle labeldistance ' +
    'labelfloat labelfontcolor labelfontname labelfontsize lhead ltail minlen penwidth samehead ' +
    'sametail style tailclip taillabel tailport target tooltip URL xlabel'
  ).split(' '),
};

const DOC = 'A Graphviz drawing attribute: kept for drawings of the pipeline, ignored when it runs.';

export const DRAWING_ATTRIBUTES: readonly AttributeEntry[] = (['graph', 'node', 'edge'] as const).flatMap(
  (on) => DRAWING[on].map((name) => attr(on, name, 'text', [], DOC, { read: 'drawing' })),
);
