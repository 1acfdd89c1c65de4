import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { BIN } from '../helpers/ensure-dist.js';

export interface Position {
  line: number;
  character: number;
}

/** A diagnostic as the server publishes it (the fields the tests read). */
export interface PublishedDiagnostic {
  range: { start: Position; end: Position };
  code?: string;
  severity?: number;
  message: string;
  data?: unknown;
}

interface Published {
  uri: string;
  version?: number;
  diagnostics: PublishedDiagnostic[];
}

/** The real `attractor lsp --stdio` as a child process, driven by a JSON-RPC client. */
export class LspClient {
  readonly connection: MessageConnection;
  private readonly child: ChildProcess;
  private readonly published: Published[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor(cwd: string) {
    this.child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], {
      cwd,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    if (!this.child.stdout || !this.child.stdin) throw new Error('the language server has no stdio');
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    this.connection.onNotification('textDocument/publishDiagnostics', (params: Published) => {
      this.published.push(params);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.listen();
  }

  async initialize(rootDir: string, initializationOptions?: unknown): Promise<Record<string, unknown>> {
    const result = await this.connection.sendRequest<{ capabilities: Record<string, unknown> }>(
      'initialize',
      {
        processId: process.pid,
        rootUri: pathToFileURL(rootDir).href,
        capabilities: {},
        initializationOptions,
      },
    );
    await this.connection.sendNotification('initialized', {});
    return result.capabilities;
  }

  open(uri: string, text: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'dot', version: 1, text },
    });
  }

  /** Replaces the whole text (a full-document change), as version `version`. */
  change(uri: string, version: number, text: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /** The diagnostics published for `uri` at `version`, waiting for them up to `timeoutMs`. */
  async diagnostics(uri: string, version: number, timeoutMs = 10_000): Promise<PublishedDiagnostic[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.published.find((p) => p.uri === uri && p.version === version);
      if (found) return found.diagnostics;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no diagnostics for ${uri} version ${version}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  /** shutdown, exit, and the process's end. */
  async close(): Promise<number | null> {
    const ended = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await ended;
    this.connection.dispose();
    return code;
  }
}

/** The position of the `nth` (0-based) occurrence of `needle` in `text`, `offset` characters into it. */
export function positionOf(text: string, needle: string, offset = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`"${needle}" occurs fewer than ${nth + 1} times`);
  }
  const before = text.slice(0, at + offset);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}
