import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzePipeline, type PipelineDocument } from './pipeline-document.js';

/**
 * Each open document analysed once per version. Edits arriving faster than analysis are coalesced:
 * only the newest version is analysed and published, on the next turn of the event loop.
 */
export class AnalysisCache {
  /** Handler types the editor's project registers (`validate --known-type`). */
  knownTypes: readonly string[] = [];
  private readonly results = new Map<string, { version: number; result: PipelineDocument }>();
  private readonly pending = new Map<string, TextDocument>();

  current(doc: TextDocument): PipelineDocument {
    const cached = this.results.get(doc.uri);
    if (cached?.version === doc.version) return cached.result;
    const result = analyzePipeline(doc.getText(), filePathOf(doc.uri), this.knownTypes);
    this.results.set(doc.uri, { version: doc.version, result });
    return result;
  }

  /** Analyses the document's newest version soon, then hands it to `done`. */
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
