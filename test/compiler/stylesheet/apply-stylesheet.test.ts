import { describe, expect, it } from 'vitest';
import { applyStylesheet, parseStylesheet } from '../../../src/compiler/stylesheet/index.js';
import { buildGraph, nodeOf } from '../../helpers/ir-builder.js';

describe('applyStylesheet', () => {
  const graph = buildGraph({
    attrs: {},
    nodes: {
      start: { shape: 'Mdiamond' },
      exit: { shape: 'Msquare' },
      plan: { label: 'Plan', class: 'planning' },
      implement: { label: 'Implement', class: 'code' },
      critical_review: { label: 'Critical Review', class: 'code' },
    },
    edges: ['start -> plan -> implement -> critical_review -> exit'],
  });
  const sheet = parseStylesheet(`
    * { llm_model: claude-sonnet-4-5; llm_provider: anthropic; }
    .code { llm_model: claude-opus-4-6; llm_provider: anthropic; }
    #critical_review { llm_model: gpt-5.2; llm_provider: openai; reasoning_effort: high; }
  `);
  const styled = applyStylesheet(graph, sheet);

  it.each([
    ['plan', { llm_model: 'claude-sonnet-4-5', llm_provider: 'anthropic' }],
    ['implement', { llm_model: 'claude-opus-4-6', llm_provider: 'anthropic' }],
    ['critical_review', { llm_model: 'gpt-5.2', llm_provider: 'openai', reasoning_effort: 'high' }],
  ])('%s', (id, expected) => {
    expect(nodeOf(styled, id).attrs).toMatchObject(expected);
  });

  it('does not modify the input graph', () => {
    expect(nodeOf(graph, 'plan').attrs.llm_model).toBeUndefined();
  });
});

describe('applyStylesheet — specificity and precedence', () => {
  const sheet = parseStylesheet(`
    #special { llm_model: by-id }
    .fast { llm_model: by-class }
    box { llm_model: by-shape }
    * { llm_model: by-universal; reasoning_effort: low }
    .fast { temperature: 0.2 }
    .slow { temperature: 0.9 }
  `);
  const graph = buildGraph({
    nodeDefaults: { timeout: 60_000 },
    nodes: {
      special: { class: 'fast' },
      fastbox: { class: 'fast' },
      plainbox: {},
      diamond: { shape: 'diamond' },
      both: { class: 'slow fast' },
      explicit: { class: 'fast', llm_model: 'mine', reasoning_effort: 'medium' },
      hexa: { shape: 'hexagon', class: 'fast' },
    },
  });
  const styled = applyStylesheet(graph, sheet);

  it.each([
    ['special', 'llm_model', 'by-id'],
    ['fastbox', 'llm_model', 'by-class'],
    ['hexa', 'llm_model', 'by-class'],
    ['plainbox', 'llm_model', 'by-shape'],
    ['diamond', 'llm_model', 'by-universal'],
    ['diamond', 'reasoning_effort', 'low'],
    ['explicit', 'llm_model', 'mine'],
    ['explicit', 'reasoning_effort', 'medium'],
    ['explicit', 'temperature', 0.2],
    // Same specificity: the later rule wins, whatever the order of classes on the node.
    ['both', 'temperature', 0.9],
  ])('%s.%s = %j', (id, key, value) => {
    expect((nodeOf(styled, id).attrs as Record<string, unknown>)[key]).toBe(value);
  });

  it('values from node [...] defaults win over the stylesheet', () => {
    const withTimeout = applyStylesheet(graph, parseStylesheet('* { timeout: 5s; max_tokens: 100 }'));
    expect(nodeOf(withTimeout, 'plainbox').attrs).toMatchObject({ timeout: 60_000, max_tokens: 100 });
  });

  it('applies typed aliases and subgraph-derived classes', () => {
    const g = buildGraph({ nodes: { a: { classes: ['code-review'], subgraph: 'Code Review' } } });
    const out = applyStylesheet(g, parseStylesheet('.code-review { model: m; provider: p; max_retries: 2 }'));
    expect(nodeOf(out, 'a').attrs).toMatchObject({ llm_model: 'm', llm_provider: 'p', max_retries: 2 });
  });

  it('an empty stylesheet returns the same graph', () => {
    expect(applyStylesheet(graph, parseStylesheet(''))).toBe(graph);
  });
});
