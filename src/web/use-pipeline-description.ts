import { useEffect, useState } from 'react';
import { api } from './api.js';
import type { PipelineDescription } from './api-types.js';
import { messageOf, type PipelineSource, sourceBody } from './pipeline-source.js';

export interface DescribedPipeline {
  described: PipelineDescription | undefined;
  describeError: string;
}

/** The pipeline's name, goal and declared parameters, asked again once the source settles (300 ms). */
export function usePipelineDescription(source: PipelineSource): DescribedPipeline {
  const [described, setDescribed] = useState<PipelineDescription>();
  const [describeError, setDescribeError] = useState('');
  useEffect(() => {
    const empty = source.kind === 'file' ? source.path === '' : source.text.trim() === '';
    if (empty) {
      setDescribed(undefined);
      setDescribeError('');
      return;
    }
    const timer = setTimeout(() => {
      api<PipelineDescription>('/describe', { method: 'POST', body: sourceBody(source) }).then(
        (d) => {
          setDescribed(d);
          setDescribeError('');
        },
        (e: unknown) => {
          setDescribed(undefined);
          setDescribeError(messageOf(e));
        },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [source]);
  return { described, describeError };
}
