import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import { runCli } from '../run-cli.js';

/**
 * examples/10-agent-tdd.dot ships with a cassette. It is recorded here, against the local Anthropic fake
 * scripted below, never written by hand: this test records it afresh and fails when the shipped copy is
 * stale (`UPDATE_CASSETTES=1 npx vitest run test/cli/agent/example-cassette.test.ts` rewrites it), then
 * replays the shipped copy with no key and no server.
 */
const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));
const DOT = path.join(EXAMPLES, '10-agent-tdd.dot');
const CASSETTE = path.join(EXAMPLES, 'agent', '10-agent-tdd.cassette.jsonl');

const BUGGY = `export function slugify(text) {
  return text
    .replace(/[^A-Za-z0-9\\s-]/g, '')
    .trim()
    .split(/[\\s-]+/)
    .filter(Boolean)
    .join('-');
}
`;
const TEST = `import assert from 'node:assert';
import { test } from 'node:test';
import { slugify } from './slugify.mjs';

test('slugify', () => {
  assert.strictEqual(slugify('Hello, World!'), 'hello-world');
  assert.strictEqual(slugify('  Many   spaces here '), 'many-spaces-here');
  assert.strictEqual(slugify('already-slugged'), 'already-slugged');
});
`;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-example-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function record(): Promise<string> {
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
  server.enqueue(
    // implement: a first version with a bug, and its test.
    anthropicStreamReply({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_impl_1',
          name: 'write_file',
          input: { file_path: 'slugify.mjs', content: BUGGY },
        },
        {
          type: 'tool_use',
          id: 'toolu_impl_2',
          name: 'write_file',
          input: { file_path: 'slugify.test.mjs', content: TEST },
        },
      ],
      stop_reason: 'tool_use',
      usage: usage(2400, 310),
    }),
    anthropicStreamReply({
      content: [{ type: 'text', text: 'Added slugify.mjs and slugify.test.mjs.' }],
      usage: usage(2900, 14),
    }),
    // fix: reads the code, spots the missing lower-casing, edits it.
    anthropicStreamReply({
      content: [
        { type: 'tool_use', id: 'toolu_fix_1', name: 'read_file', input: { file_path: 'slugify.mjs' } },
      ],
      stop_reason: 'tool_use',
      usage: usage(2300, 40),
    }),
    anthropicStreamReply({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_fix_2',
          name: 'edit_file',
          input: {
            file_path: 'slugify.mjs',
            old_string: '  return text\n',
            new_string: '  return text\n    .toLowerCase()\n',
          },
        },
      ],
      stop_reason: 'tool_use',
      usage: usage(2600, 60),
    }),
    anthropicStreamReply({
      content: [{ type: 'text', text: 'Fixed: slugify now lower-cases its input.' }],
      usage: usage(2800, 12),
    }),
  );
  const dir = workspace();
  const cassette = path.join(workspace(), 'recorded.jsonl');
  const result = await runCli(['run', DOT, '--logs-dir', 'run', '--record', cassette], {
    cwd: dir,
    env: {
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: server.origin,
      PATH: process.env['PATH'],
    },
  });
  // Only the plan: which model each node uses.
  expect(result.stderr.replace(/^attractor: \S+: agent model \S+ via \S+.*\n/gm, '')).toBe('');
  expect(result.code).toBe(0);
  return readFileSync(cassette, 'utf8');
}

function comparable(cassette: string): unknown[] {
  return cassette
    .trim()
    .split('\n')
    .map((line) => {
      const entry = JSON.parse(line);
      delete entry.request.systemPrompt;
      return entry;
    });
}

describe('examples/10-agent-tdd.dot and its cassette', () => {
  it('the shipped cassette is what recording against the fake server gives', async () => {
    const fresh = await record();
    if (process.env['UPDATE_CASSETTES'] === '1') writeFileSync(CASSETTE, fresh);
    expect(existsSync(CASSETTE)).toBe(true);
    // The system prompt carries today's date and this machine's OS: replay does not match on it either.
    expect(comparable(readFileSync(CASSETTE, 'utf8'))).toEqual(comparable(fresh));
  }, 60_000);

  it('replays with no key and no server in --workdir: the test fails once, the fix loop repairs the code', async () => {
    const dir = workspace();
    const elsewhere = workspace();
    const result = await runCli(
      ['run', DOT, '--json', '--logs-dir', 'run', '--replay', CASSETTE, '--workdir', dir],
      { cwd: elsewhere, env: { PATH: process.env['PATH'] } },
    );
    // Red, then green, is the intended path: clean, with the test that was fixed named as recovered.
    expect(result.stderr).toContain('Completed at exit (quality: clean — recovered: run_tests)');
    expect(result.code).toBe(0);
    const visited = result.stdout
      .split('\n')
      .filter((line) => line.includes('"node.start"'))
      .map((line) => JSON.parse(line).node_id);
    expect(visited).toEqual(['start', 'implement', 'run_tests', 'fix', 'run_tests', 'exit']);
    expect(readFileSync(path.join(dir, 'slugify.mjs'), 'utf8')).toContain('.toLowerCase()');
    expect(existsSync(path.join(elsewhere, 'slugify.mjs'))).toBe(false);
  }, 60_000);
});
