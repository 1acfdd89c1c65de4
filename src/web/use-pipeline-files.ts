import { useEffect, useState } from 'react';
import { api } from './api.js';

/** The .dot files in the server's allowed folders, asked once; `onFirst` gets the first, if any. */
export function usePipelineFiles(onFirst: (path: string) => void): string[] {
  const [files, setFiles] = useState<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, on mount
  useEffect(() => {
    api<{ files: string[] }>('/pipeline-files').then(
      (r) => {
        setFiles(r.files);
        if (r.files[0]) onFirst(r.files[0]);
      },
      () => {},
    );
  }, []);
  return files;
}
