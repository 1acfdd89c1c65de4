/** Four-eyes: who may answer a gate that needs a second person, and the server that cannot tell people apart. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenHash } from '../../../src/server/auth/api-token.js';
import { FileTokenStore } from '../../../src/server/auth/file-token-store.js';
import { type FourEyesGate, fourEyesRefusal } from '../../../src/server/auth/four-eyes.js';
import type { Principal } from '../../../src/server/auth/principal.js';
import { startServer } from '../../../src/server/start-server.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, GATE_PIPELINE, testServer, waitFor } from '../server-fixtures.js';
import { bearer, createToken } from './token-fixtures.js';

afterEach(closeServers);

const alice: Principal = { name: 'alice', kind: 'person', roles: ['operator', 'approver'] };
const ci: Principal = { name: 'ci', kind: 'token', roles: ['approver'] };
const serverToken: Principal = { name: 'token', kind: 'server-token', roles: ['admin'] };
const GATE: FourEyesGate = { gateFourEyes: true, serverFourEyes: false };
const SERVER: FourEyesGate = { gateFourEyes: false, serverFourEyes: true };
const OFF: FourEyesGate = { gateFourEyes: false, serverFourEyes: false };

describe('fourEyesRefusal', () => {
  it.each([
    { what: 'no four-eyes: the starter answers', gate: OFF, startedBy: 'alice', by: alice, says: undefined },
    { what: 'the gate asks, someone else answers', gate: GATE, startedBy: 'alice', by: ci, says: undefined },
    {
      what: 'the gate asks, the starter answers',
      gate: GATE,
      startedBy: 'alice',
      by: alice,
      says: /human.four_eyes=true: alice started this run/,
    },
    {
      what: 'the server asks, the starter answers',
      gate: SERVER,
      startedBy: 'ci',
      by: ci,
      says: /--four-eyes: ci started this run/,
    },
    {
      what: 'the single --token names no one',
      gate: GATE,
      startedBy: 'alice',
      by: serverToken,
      says: /"token" names no one/,
    },
    {
      what: 'no starter recorded',
      gate: GATE,
      startedBy: undefined,
      by: ci,
      says: /who started this run is not recorded/,
    },
  ])('$what', ({ gate, startedBy, by, says }) => {
    const refusal = fourEyesRefusal(gate, startedBy, by);
    if (says === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toMatch(says);
  });
});

describe('attractor serve --four-eyes', () => {
  it('refuses to start with only the single --token, naming what it needs', async () => {
    const started = startServer({ port: 0, dataDir: tempDir(), token: 'secret', fourEyes: true });
    await expect(started).rejects.toMatchObject({ code: 'FOUR_EYES_NEEDS_NAMES' });
    await expect(started).rejects.toThrow(/needs named identities: create personal tokens/);
  });

  it('starts once personal tokens exist', async () => {
    const dataDir = tempDir();
    await new FileTokenStore(dataDir).create({
      name: 'ci',
      role: 'operator',
      hash: tokenHash('attr_ci'),
      created_at: new Date().toISOString(),
    });
    const server = await testServer({ dataDir, token: 'secret', fourEyes: true });
    expect((await server.json('GET', '/healthz')).status).toBe(200);
  });
});

describe('human.four_eyes', () => {
  it('is a declared boolean gate attribute: true validates, a non-boolean is flagged', async () => {
    const dir = tempDir();
    const dot = (value: string) => `digraph g {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship?", human.four_eyes=${value}]
  exit [shape=Msquare]
  start -> gate
  gate -> exit [label="[S] Ship"]
}
`;
    writeFileSync(path.join(dir, 'ok.dot'), dot('true'));
    writeFileSync(path.join(dir, 'bad.dot'), dot('"maybe"'));
    const ok = await runCli(['validate', path.join(dir, 'ok.dot'), '--strict']);
    expect(ok.stdout + ok.stderr).not.toMatch(/four_eyes/);
    expect(ok.code).toBe(0);
    const bad = await runCli(['validate', path.join(dir, 'bad.dot'), '--strict']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toMatch(/human\.four_eyes="maybe" is not a boolean/);
  });
});

describe('a four-eyes gate over HTTP', () => {
  const pipeline = (fourEyes: boolean) => `digraph g {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship?"${fourEyes ? ', human.four_eyes=true' : ''}]
  ship [prompt="Ship"]
  exit [shape=Msquare]
  start -> gate
  gate -> ship [label="[S] Ship"]
  ship -> exit
}
`;

  it.each([
    {
      fourEyes: true,
      status: 403,
      says: /human.four_eyes=true: it needs an answer from a named person .* "token" names no one/,
    },
    { fourEyes: false, status: 200, says: undefined },
  ])(
    'human.four_eyes=$fourEyes answered with the single --token: $status',
    async ({ fourEyes, status, says }) => {
      const server = await testServer({ token: 'secret' });
      const admin = { authorization: 'Bearer secret' };
      const { body: run } = await server.json(
        'POST',
        '/pipelines',
        { dot_source: pipeline(fourEyes), scenario: {} },
        admin,
      );
      const question = await waitFor(
        async () => (await server.json('GET', `/pipelines/${run.id}/questions`, undefined, admin)).body[0],
        'the gate to ask',
      );
      const answered = await server.json(
        'POST',
        `/pipelines/${run.id}/questions/${question.id}/answer`,
        { answer: 'S' },
        admin,
      );
      expect(answered.status).toBe(status);
      if (says) {
        expect(answered.body.error.code).toBe('FOUR_EYES');
        expect(answered.body.error.message).toMatch(says);
      }
    },
  );
});

describe('a four-eyes gate answered with personal tokens', () => {
  it('refuses the token that started the run (403 saying why) and takes another', async () => {
    const server = await testServer();
    const where = ['--data-dir', server.dataDir] as ['--data-dir', string];
    const lead = await createToken(where, 'lead', 'admin');
    const reviewer = await createToken(where, 'reviewer', 'approver');
    const dot = GATE_PIPELINE.replace('label="Ship it?"', 'label="Ship it?", human.four_eyes=true');
    expect(dot).toContain('human.four_eyes=true');
    const { body: run } = await server.json(
      'POST',
      '/pipelines',
      { dot_source: dot, scenario: {} },
      bearer(lead),
    );
    const question = await waitFor(
      async () =>
        (await server.json('GET', `/pipelines/${run.id}/questions`, undefined, bearer(lead))).body[0],
      'the gate to ask',
    );
    const route = `/pipelines/${run.id}/questions/${question.id}/answer`;
    const refused = await server.json('POST', route, { answer: 'S' }, bearer(lead));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'this gate has human.four_eyes=true: lead started this run, so someone else must answer it.',
    );
    expect((await server.json('POST', route, { answer: 'S' }, bearer(reviewer))).status).toBe(200);
  });
});
