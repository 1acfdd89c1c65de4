import { findAttribute } from '../compiler/attributes/attribute-table.js';
import { BUILTIN_HANDLER_TYPES, SHAPE_HANDLERS } from '../compiler/ir.js';
import { STYLE_PROPERTY_NAMES } from '../compiler/stylesheet/index.js';
import { listModels } from '../llm/catalog.js';
import { CONDITION_KEYS, OUTCOME_VALUES } from './condition-keys.js';
import type { AttributeSite } from './dot-outline.js';
import type { PipelineDocument } from './pipeline-document.js';

/** One value completion: what is inserted and a word on what it is. */
export interface ValueChoice {
  label: string;
  detail?: string;
}

const MODEL_KEYS = new Set(['llm_model', 'model', 'router_model']);
const NODE_KEYS = new Set(['retry_target', 'fallback_retry_target']);

/** The values an attribute can take at the cursor, `textBefore` being its value up to the cursor. */
export function valueChoices(doc: PipelineDocument, site: AttributeSite, textBefore: string): ValueChoice[] {
  const name = site.key.value;
  if (name === 'shape')
    return Object.entries(SHAPE_HANDLERS).map(([s, h]) => ({ label: s, detail: `runs ${h}` }));
  if (name === 'type') return BUILTIN_HANDLER_TYPES.map((label) => ({ label, detail: 'handler type' }));
  if (MODEL_KEYS.has(name))
    return listModels().map((m) => ({ label: m.id, detail: `${m.provider}: ${m.displayName}` }));
  if (NODE_KEYS.has(name)) return nodeIds(doc).map((label) => ({ label, detail: 'node' }));
  if (name === 'condition' || name === 'manager.stop_condition') return conditionChoices(doc, textBefore);
  if (name === 'model_stylesheet') return stylesheetChoices(doc, textBefore);
  const owner = site.owner === 'subgraph' ? undefined : findAttribute(site.owner, name);
  return (owner?.values ?? []).map((label) => ({ label }));
}

export function nodeIds(doc: PipelineDocument): string[] {
  return [...new Set(doc.graph?.nodes.map((n) => n.id) ?? doc.outline.mentions.map((m) => m.id))];
}

/** After `outcome=` the statuses; otherwise the keys, those other conditions of the file test included. */
function conditionChoices(doc: PipelineDocument, textBefore: string): ValueChoice[] {
  if (/\boutcome\s*!?=\s*\w*$/.test(textBefore))
    return OUTCOME_VALUES.map((label) => ({ label, detail: 'status' }));
  const used = doc.outline.lists
    .flatMap((list) => list.sites)
    .filter((s) => s.key.value === 'condition' && s.value)
    .flatMap((s) => s.value?.value.match(/\bcontext\.[\w.]+/g) ?? []);
  return [...new Set([...CONDITION_KEYS, ...used])].map((label) => ({ label, detail: 'condition key' }));
}

/** Inside `{ … }` the properties; outside, the selectors (`*`, shapes, `.class`, `#id`). */
function stylesheetChoices(doc: PipelineDocument, textBefore: string): ValueChoice[] {
  const inBlock = textBefore.lastIndexOf('{') > textBefore.lastIndexOf('}');
  if (inBlock) return STYLE_PROPERTY_NAMES.map((label) => ({ label, detail: 'stylesheet property' }));
  const classes = [...new Set(doc.graph?.nodes.flatMap((n) => n.classes) ?? [])];
  return [
    { label: '*', detail: 'every node' },
    ...Object.keys(SHAPE_HANDLERS).map((label) => ({ label, detail: 'nodes of this shape' })),
    ...classes.map((c) => ({ label: `.${c}`, detail: 'nodes of this class' })),
    ...nodeIds(doc).map((id) => ({ label: `#${id}`, detail: 'this node' })),
  ];
}
