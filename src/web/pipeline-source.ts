import { ApiFailure } from './api.js';

/** Where the pipeline to start comes from: a file in the server's allowed folders, or pasted DOT. */
export type PipelineSource = { kind: 'file'; path: string } | { kind: 'paste'; text: string };

/** The source as the server's `/describe` and `/pipelines` bodies name it. */
export const sourceBody = (source: PipelineSource): Record<string, string> =>
  source.kind === 'file' ? { dot_path: source.path } : { dot_source: source.text };

/** A failure in words, with the compiler's diagnostics when the server sent them. */
export const messageOf = (error: unknown): string => {
  if (error instanceof ApiFailure) {
    const diagnostics = (error.body as { error?: { diagnostics?: { message: string }[] } } | null)?.error
      ?.diagnostics;
    return diagnostics?.length
      ? `${error.message} ${diagnostics.map((d) => d.message).join(' ')}`
      : error.message;
  }
  return error instanceof Error ? error.message : String(error);
};
