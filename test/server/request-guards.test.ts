import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeServers,
  GATE_PIPELINE,
  LINEAR_PIPELINE,
  readSse,
  testServer,
  waitFor,
} from './server-fixtures.js';

afterEach(closeServers);

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with exactly the headers given (fetch will not let a test choose `Host`). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        setHost: options.headers?.['host'] === undefined,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const SUBMIT = JSON.stringify({ dot_source: LINEAR_PIPELINE, dry_run: true });

describe('the server answers only for its own names (Host)', () => {
  it.each([
    ['127.0.0.1:PORT', 200],
    ['localhost:PORT', 200],
    ['LOCALHOST:PORT', 200],
    ['[::1]:PORT', 200],
    ['evil.example:PORT', 403],
    ['evil.example', 403],
    ['localhost:1', 403],
    ['127.0.0.1.evil.example:PORT', 403],
  ])('Host %s → %i, /healthz included', async (host, status) => {
    const server = await testServer();
    const header = host.replace('PORT', String(server.port));
    for (const route of ['/healthz', '/pipelines', '/']) {
      const response = await raw(`${server.url}${route}`, { headers: { host: header } });
      expect(response.status, `${route} with Host ${header}`).toBe(status);
      if (status === 403) {
        expect(JSON.parse(response.body).error.code).toBe('HOST_NOT_ALLOWED');
        expect(response.body).not.toContain('linear');
      }
    }
  });

  it('--allowed-host adds names: on any port, or on the port given', async () => {
    const server = await testServer({ allowedHosts: ['build.example', 'ci.example:9443'] });
    const status = async (host: string) => (await raw(`${server.url}/healthz`, { headers: { host } })).status;
    expect(await status('build.example')).toBe(200);
    expect(await status('build.example:8443')).toBe(200);
    expect(await status('ci.example:9443')).toBe(200);
    expect(await status('ci.example:9444')).toBe(403);
    expect(await status('other.example:9443')).toBe(403);
  });
});

describe('requests that change something: JSON, and the server’s own Origin', () => {
  it.each<[string, number, Record<string, string>]>([
    [
      'a cross-site text/plain form post',
      415,
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
    ],
    ['text/plain from a script', 415, { 'content-type': 'text/plain' }],
    ['a urlencoded form', 415, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type at all', 415, {}],
    ['JSON from a foreign page', 403, { 'content-type': 'application/json', origin: 'https://evil.example' }],
    ['JSON from an opaque origin', 403, { 'content-type': 'application/json', origin: 'null' }],
    [
      'JSON from another local port',
      403,
      { 'content-type': 'application/json', origin: 'http://127.0.0.1:1' },
    ],
    [
      'JSON from the page itself',
      201,
      { 'content-type': 'application/json', origin: 'http://127.0.0.1:PORT' },
    ],
    ['JSON from a script (no Origin)', 201, { 'content-type': 'application/json; charset=utf-8' }],
  ])('%s → %i, and nothing starts when refused', async (_what, status, headers) => {
    const server = await testServer();
    const withPort = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', String(server.port))]),
    );
    const response = await raw(`${server.url}/pipelines`, {
      method: 'POST',
      headers: withPort,
      body: SUBMIT,
    });
    expect(response.status).toBe(status);
    const runs = await server.json('GET', '/pipelines');
    expect(runs.body.pipelines).toHaveLength(status === 201 ? 1 : 0);
    if (status === 415) expect(JSON.parse(response.body).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    if (status === 403) expect(JSON.parse(response.body).error.code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('the Origin check follows the name the page was opened by (localhost and 127.0.0.1 alike)', async () => {
    const server = await testServer();
    const response = await raw(`${server.url}/pipelines`, {
      method: 'POST',
      headers: {
        host: `localhost:${server.port}`,
        origin: `http://localhost:${server.port}`,
        'content-type': 'application/json',
      },
      body: SUBMIT,
    });
    expect(response.status).toBe(201);
  });

  it('cancel, resume and answers are state changes too', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    const question = await waitFor(async () => {
      const { body: qs } = await server.json('GET', `/pipelines/${body.id}/questions`);
      return qs[0];
    }, 'a question');
    const foreign = { 'content-type': 'application/json', origin: 'https://evil.example' };
    for (const route of [
      `/pipelines/${body.id}/cancel`,
      `/pipelines/${body.id}/resume`,
      `/pipelines/${body.id}/questions/${question.id}/answer`,
    ]) {
      const response = await raw(`${server.url}${route}`, {
        method: 'POST',
        headers: foreign,
        body: '{"answer":"S"}',
      });
      expect(response.status, route).toBe(403);
      const plain = await raw(`${server.url}${route}`, { method: 'POST', body: '{"answer":"S"}' });
      expect(plain.status, route).toBe(415);
    }
    // Still at its gate: running, and listed as waiting for a person.
    expect((await server.json('GET', `/pipelines/${body.id}`)).body.status).toBe('waiting');
    expect((await server.json('GET', `/pipelines/${body.id}/questions`)).body).toHaveLength(1);
  });

  it('--cors-origin names the pages that may call it, with CORS headers for them only', async () => {
    const server = await testServer({ corsOrigin: ['https://app.example', 'https://ops.example'] });
    for (const origin of ['https://app.example', 'https://ops.example']) {
      const response = await raw(`${server.url}/pipelines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: SUBMIT,
      });
      expect(response.status).toBe(201);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    }
    const preflight = await raw(`${server.url}/pipelines`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    const evil = await raw(`${server.url}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: SUBMIT,
    });
    expect(evil.status).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses "*" or a path as a CORS origin', async () => {
    await expect(testServer({ corsOrigin: '*' })).rejects.toThrow(/corsOrigin.*scheme:\/\/host/);
    await expect(testServer({ corsOrigin: ['https://app.example/path'] })).rejects.toThrow(/corsOrigin/);
  });
});

describe('a server with a token', () => {
  it('serves the page shell to anyone, and nothing else without the token (401, one rule)', async () => {
    const server = await testServer({ token: 's3cret' });
    const auth = { authorization: 'Bearer s3cret' };
    const created = await server.json(
      'POST',
      '/pipelines',
      { dot_source: GATE_PIPELINE, dry_run: true },
      auth,
    );
    expect(created.status).toBe(201);
    const page = await raw(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('src="/web/app.js"');
    expect(page.body).not.toContain(created.body.id);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    // What the shell loads is public too, and holds no run data.
    for (const asset of ['/web/app.js', '/web/app.css', '/favicon.svg']) {
      const loaded = await raw(`${server.url}${asset}`);
      expect(loaded.status, asset).toBe(200);
      expect(loaded.body).not.toContain(created.body.id);
    }
    const id = created.body.id as string;
    for (const route of [
      '/pipelines',
      `/pipelines/${id}`,
      `/pipelines/${id}/events`,
      `/pipelines/${id}/graph`,
      `/pipelines/${id}/context`,
      '/server-info',
      '/pipeline-files',
      '/nope',
    ]) {
      for (const authorization of [undefined, 'Bearer wrong', 's3cret', 'Basic czNjcmV0']) {
        const response = await raw(`${server.url}${route}`, {
          headers: authorization ? { authorization } : {},
        });
        expect(response.status, `${route} with ${authorization}`).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(response.body).not.toContain('gate');
      }
    }
    const refused = await raw(`${server.url}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: SUBMIT,
    });
    expect(refused.status).toBe(401);
    expect((await raw(`${server.url}/healthz`)).status).toBe(200);
    const events = await readSse(`${server.url}/pipelines/${id}/events`, {
      headers: auth,
      until: (m) => m.data['kind'] === 'interview.start',
    });
    expect(events.at(-1)?.data['kind']).toBe('interview.start');
  });
});
