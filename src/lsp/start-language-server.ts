import {
  type CodeAction,
  CodeActionKind,
  type Connection,
  createConnection,
  type InitializeResult,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as z from 'zod';
import { AnalysisCache } from './analysis-cache.js';
import { complete } from './completion.js';
import { definitionAt } from './definition.js';
import { hoverAt } from './hover.js';
import { type DiagnosticFix, toLspDiagnostics } from './lsp-diagnostics.js';
import type { PipelineDocument } from './pipeline-document.js';
import { prepareRenameAt, renameAt } from './rename.js';

const CAPABILITIES: InitializeResult = {
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    completionProvider: { triggerCharacters: ['[', ',', '=', ' ', '>', '.', '#', '{', ';'] },
    hoverProvider: true,
    definitionProvider: true,
    renameProvider: { prepareProvider: true },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  },
  serverInfo: { name: 'attractor' },
};

/** What a client may pass as `initializationOptions`: `{ "knownTypes": ["deploy"] }`. */
const ServerOptionsSchema = z
  .object({ knownTypes: z.array(z.string()).default([]) })
  .catch({ knownTypes: [] });

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
  connection.onInitialize(({ initializationOptions }) => {
    analysed.knownTypes = ServerOptionsSchema.parse(initializationOptions ?? {}).knownTypes;
    return CAPABILITIES;
  });
  documents.onDidChangeContent(({ document }) =>
    analysed.schedule(document, (doc, result) => publish(connection, doc, result)),
  );
  documents.onDidClose(({ document }) => {
    analysed.forget(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  registerFeatures(connection, documents, analysed);
  documents.listen(connection);
  return new Promise((resolve) => {
    connection.onExit(() => resolve());
    connection.onShutdown(() => analysed.clear());
    connection.listen();
    input.on('close', () => resolve());
  });
}

/** Completion, hover, definition, rename and quick fixes, each on the document's current analysis. */
function registerFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  analysed: AnalysisCache,
): void {
  const at = <T>(
    uri: string,
    position: { line: number; character: number },
    run: (doc: TextDocument, result: PipelineDocument, offset: number) => T,
  ) => {
    const doc = documents.get(uri);
    return doc ? run(doc, analysed.current(doc), doc.offsetAt(position)) : undefined;
  };
  connection.onCompletion(({ textDocument, position }) => at(textDocument.uri, position, complete) ?? []);
  connection.onHover(
    ({ textDocument, position }) => at(textDocument.uri, position, (_d, r, o) => hoverAt(r, o)) ?? null,
  );
  connection.onDefinition(
    ({ textDocument, position }) => at(textDocument.uri, position, definitionAt) ?? null,
  );
  connection.onPrepareRename(
    ({ textDocument, position }) => at(textDocument.uri, position, prepareRenameAt) ?? null,
  );
  connection.onRenameRequest(
    ({ textDocument, position, newName }) =>
      at(textDocument.uri, position, (doc, result, offset) => renameAt(doc, result, offset, newName)) ?? null,
  );
  connection.onCodeAction(({ textDocument, context }) =>
    context.diagnostics.flatMap((diagnostic): CodeAction[] => {
      const fix = asFix(diagnostic.data);
      if (!fix) return [];
      const edit = { changes: { [textDocument.uri]: fix.edits } };
      return [
        {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: true,
          edit,
        },
      ];
    }),
  );
}

function publish(connection: Connection, doc: TextDocument, result: PipelineDocument): void {
  void connection.sendDiagnostics({
    uri: doc.uri,
    version: doc.version,
    diagnostics: toLspDiagnostics(doc, result),
  });
}

const PositionSchema = z.object({ line: z.number(), character: z.number() });
/** A diagnostic's `data` as the client hands it back: the fix `toLspDiagnostics` put there. */
const FixSchema = z.object({
  title: z.string(),
  edits: z.array(
    z.object({ range: z.object({ start: PositionSchema, end: PositionSchema }), newText: z.string() }),
  ),
});

function asFix(data: unknown): DiagnosticFix | undefined {
  const parsed = FixSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
