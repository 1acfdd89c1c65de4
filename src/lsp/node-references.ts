import type { DotToken } from './dot-tokens.js';
import type { PipelineDocument } from './pipeline-document.js';

/** Attributes whose value is a node id: renaming the node renames them too. */
const NODE_VALUED = new Set(['retry_target', 'fallback_retry_target']);

/** Every token naming node `id`: its statements, edge ends, and retry targets. */
export function nodeReferences(analysed: PipelineDocument, id: string): DotToken[] {
  const { outline } = analysed;
  const mentions = outline.mentions.filter((m) => m.id === id).map((m) => m.token);
  const targets = [...outline.statements, ...outline.lists.flatMap((list) => list.sites)]
    .filter((site) => NODE_VALUED.has(site.key.value) && site.value?.value === id)
    .flatMap((site) => (site.value ? [site.value] : []));
  return [...mentions, ...targets, ...stylesheetIds(analysed, id)].sort((a, b) => a.start - b.start);
}

/** `#id` selectors in the graph's model_stylesheet, as tokens over the id's characters. */
function stylesheetIds(analysed: PipelineDocument, id: string): DotToken[] {
  const { statements, lists } = analysed.outline;
  const graphSites = [...statements, ...lists.filter((l) => l.owner === 'graph').flatMap((l) => l.sites)];
  const sheets = graphSites.filter((s) => s.key.value === 'model_stylesheet' && s.value);
  const pattern = new RegExp(`#${id.replace(/[-]/g, '\\-')}(?![\\w-])`, 'g');
  return sheets.flatMap(({ value }) =>
    value
      ? [...value.text.matchAll(pattern)].map((match) => {
          const start = value.start + (match.index ?? 0) + 1;
          return { kind: 'id' as const, text: id, value: id, start, end: start + id.length };
        })
      : [],
  );
}

/** The node id under the cursor: a mention, or the value of a retry target. */
export function nodeIdAt(analysed: PipelineDocument, offset: number): DotToken | undefined {
  const { outline } = analysed;
  const mention = outline.mentions.find((m) => offset >= m.token.start && offset <= m.token.end);
  if (mention) return mention.token;
  const site = [...outline.statements, ...outline.lists.flatMap((list) => list.sites)].find(
    (s) => NODE_VALUED.has(s.key.value) && s.value && offset >= s.value.start && offset <= s.value.end,
  );
  return site?.value;
}

/** Where node `id` is defined: its first own statement, else its first mention. */
export function nodeDefinition(analysed: PipelineDocument, id: string): DotToken | undefined {
  const mentions = analysed.outline.mentions.filter((m) => m.id === id);
  return (mentions.find((m) => m.declares) ?? mentions[0])?.token;
}
