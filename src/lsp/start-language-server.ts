import { fileURLToPath } from 'node:url';
import {
  type CodeAction,
  CodeActionKind,
  type Connection,
  createConnection,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { complete } from './completion.js';
import { definitionAt } from './definition.js';
import { hoverAt } from './hover.js';
import { type DiagnosticFix, toLspDiagnostics } from './lsp-diagnostics.js';
import { analyzePipeline, type PipelineDocument } from './pipeline-document.js';
import { prepareRenameAt, renameAt } from './rename.js';

/**
 * `attractor lsp`: a language server for pipeline DOT files over stdin/stdout. Resolves when the
 * client ends the session (`exit`, or the stream closes).
 */
export function startLanguageServer(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(input),
    new StreamMessageWriter(output),
  );
  const documents = new TextDocuments(TextDocument);
  const analysed = new AnalysisCache();
  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['[', ',', '=', ' ', '>', '.', '#', '{', ';'] },
      hoverProvider: true,
      definitionProvider: true,
      renameProvider: { prepareProvider: true },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'attractor' },
  }));
  documents.onDidChangeContent(({ document }) =>
    analysed.schedule(document, (doc, result) => publish(connection, doc, result)),
  );
  documents.onDidClose(({ document }) => {
    analysed.forget(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  const withDocument = <T>(
    uri: string,
    run: (doc: TextDocument, result: PipelineDocument) => T,
  ): T | undefined => {
    const doc = documents.get(uri);
    return doc ? run(doc, analysed.current(doc)) : undefined;
  };
  connection.onCompletion(
    ({ textDocument, position }) =>
      withDocument(textDocument.uri, (doc, result) => complete(doc, result, doc.offsetAt(position))) ?? [],
  );
  connection.onHover(
    ({ textDocument, position }) =>
      withDocument(textDocument.uri, (doc, result) => hoverAt(result, doc.offsetAt(position))) ?? null,
  );
  connection.onDefinition(
    ({ textDocument, position }) =>
      withDocument(textDocument.uri, (doc, result) => definitionAt(doc, result, doc.offsetAt(position))) ??
      null,
  );
  connection.onPrepareRename(
    ({ textDocument, position }) =>
      withDocument(textDocument.uri, (doc, result) => prepareRenameAt(doc, result, doc.offsetAt(position))) ??
      null,
  );
  connection.onRenameRequest(
    ({ textDocument, position, newName }) =>
      withDocument(textDocument.uri, (doc, result) =>
        renameAt(doc, result, doc.offsetAt(position), newName),
      ) ?? null,
  );
  connection.onCodeAction(({ textDocument, context }) =>
    context.diagnostics.flatMap((diagnostic): CodeAction[] => {
      const fix = asFix(diagnostic.data);
      if (!fix) return [];
      return [
        {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: true,
          edit: { changes: { [textDocument.uri]: fix.edits } },
        },
      ];
    }),
  );
  documents.listen(connection);
  return new Promise((resolve) => {
    connection.onExit(() => resolve());
    connection.onShutdown(() => analysed.clear());
    connection.listen();
    input.on('close', () => resolve());
  });
}

function publish(connection: Connection, doc: TextDocument, result: PipelineDocument): void {
  void connection.sendDiagnostics({
    uri: doc.uri,
    version: doc.version,
    diagnostics: toLspDiagnostics(doc, result),
  });
}

function asFix(data: unknown): DiagnosticFix | undefined {
  if (typeof data !== 'object' || data === null || !('title' in data) || !('edits' in data)) return undefined;
  const { title, edits } = data;
  return typeof title === 'string' && Array.isArray(edits) ? { title, edits } : undefined;
}

/**
 * Each open document analysed once per version. Edits arriving faster than analysis are coalesced:
 * only the newest version is analysed and published, on the next turn of the event loop.
 */
class AnalysisCache {
  private readonly results = new Map<string, { version: number; result: PipelineDocument }>();
  private readonly pending = new Map<string, TextDocument>();

  current(doc: TextDocument): PipelineDocument {
    const cached = this.results.get(doc.uri);
    if (cached?.version === doc.version) return cached.result;
    const result = analyzePipeline(doc.getText(), filePathOf(doc.uri));
    this.results.set(doc.uri, { version: doc.version, result });
    return result;
  }

  schedule(doc: TextDocument, done: (doc: TextDocument, result: PipelineDocument) => void): void {
    const waiting = this.pending.has(doc.uri);
    this.pending.set(doc.uri, doc);
    if (waiting) return;
    setImmediate(() => {
      const latest = this.pending.get(doc.uri);
      this.pending.delete(doc.uri);
      if (latest) done(latest, this.current(latest));
    });
  }

  forget(uri: string): void {
    this.results.delete(uri);
    this.pending.delete(uri);
  }

  clear(): void {
    this.results.clear();
    this.pending.clear();
  }
}

function filePathOf(uri: string): string | undefined {
  return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
}
