export const COMPILE_FORMATS = ['json', 'xstate', 'svg'] as const;
export type CompileFormat = (typeof COMPILE_FORMATS)[number];
