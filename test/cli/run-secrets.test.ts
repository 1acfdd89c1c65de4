/**
 * A real run through the CLI, against a local stand-in for Anthropic, in an environment full of
 * credentials: a tool node and the agent's shell print their whole environment and the one secret they
 * were let have (`env_passthrough="GH_TOKEN"`). Afterwards no file the run wrote — run directory,
 * working directory — holds any of the secrets, the provider key included.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { tempDir } from '../helpers/temp-dir.js';

beforeAll(ensureDist, 180_000);

const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
  GH_TOKEN: 'ghp-passed-through-4f1c9a',
  PGPASSWORD: 'pg-password-77d0e2',
  STRIPE_SECRET_KEY: 'sk-live-stripe-a83b51',
  PRIVATE_KEY: 'private-key-material-0c6f',
  AWS_SESSION_TOKEN: 'aws-session-token-9e2d44',
  AZURE_CLIENT_SECRET: 'azure-client-secret-5b7a',
  DATABASE_URL: 'postgres://app:db-password-31f8@db/app',
};

const PRINT = 'env; test -n "$GH_TOKEN" && echo "gh token given: $GH_TOKEN"';

const PIPELINE = `digraph secrets {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  dump [shape=parallelogram, tool_command=${JSON.stringify(PRINT)}, env_passthrough="GH_TOKEN"]
  agent [prompt="Print the environment.", llm_model="claude-sonnet-4-6", env_passthrough="GH_TOKEN"]
  start -> dump -> agent -> exit
}
`;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function run(cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', '--no-tui', 'secrets.dot'], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('secrets stay out of everything a run writes', () => {
  it('a tool node and the agent shell print them; no file of the run holds one', async () => {
    const fake = await startFakeAnthropicServer();
    try {
      fake.enqueue(
        anthropicStreamReply({
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: PRINT } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
        anthropicStreamReply({
          content: [{ type: 'text', text: 'Printed it.' }],
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
      const cwd = tempDir();
      fs.writeFileSync(path.join(cwd, 'secrets.dot'), PIPELINE);
      const result = await run(cwd, { ...SECRETS, ANTHROPIC_BASE_URL: fake.origin });
      expect(result.out).toContain('Completed at exit');
      expect(result.code).toBe(0);

      // The commands did get the secret they named, and printed it...
      const files = filesUnder(cwd);
      const written = files.map((file) => fs.readFileSync(file, 'latin1')).join('\n');
      expect(written).toContain('gh token given: [redacted GH_TOKEN]');
      const toolResult = JSON.stringify(fake.requests[1]?.body);
      expect(toolResult).toContain('gh token given: [redacted GH_TOKEN]');
      // ...and no file holds any secret.
      for (const file of files) {
        const text = fs.readFileSync(file, 'latin1');
        for (const [name, value] of Object.entries(SECRETS)) {
          expect(text.includes(value), `${name} in ${path.relative(cwd, file)}`).toBe(false);
        }
      }
      expect(result.out).not.toContain(SECRETS['GH_TOKEN']);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
