import * as z from 'zod';
import { NoObjectGeneratedError } from './errors/no-object-generated-error.js';
import {
  baseRequest,
  type Completer,
  callOptions,
  type GenerateOptions,
  initialMessages,
  resultOf,
  stepOf,
} from './generate.js';
import type { Streamer } from './stream-generate.js';
import { compileJsonSchema } from './tools/json-schema-validator.js';
import type { GenerateResult, Request, Response } from './types.js';

export type GenerateObjectOptions<T> = Omit<
  GenerateOptions,
  'responseFormat' | 'toolExecutor' | 'maxToolRounds' | 'repairToolCall'
> & {
  /** A zod schema or a JSON Schema object; the output is validated against either. */
  schema: z.ZodType<T> | Record<string, unknown>;
  schemaName?: string;
  /** Ask for strict schema adherence where the provider supports it. Default true. */
  strict?: boolean;
};

function isZod(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

function objectRequest<T>(options: GenerateObjectOptions<T>): Request {
  const { schema, schemaName, strict, ...rest } = options;
  const jsonSchema = isZod(schema)
    ? (z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>)
    : (schema as Record<string, unknown>);
  const { $schema: _drop, ...cleanSchema } = jsonSchema;
  return {
    ...baseRequest(rest),
    messages: initialMessages(rest),
    responseFormat: {
      type: 'json_schema',
      jsonSchema: cleanSchema,
      name: schemaName ?? 'response',
      strict: strict ?? true,
    },
  };
}

/** Models sometimes fence JSON in markdown even when asked not to; accept that, nothing looser. */
function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return match ? match[1]! : text;
}

export function parseObject<T>(text: string, schema: GenerateObjectOptions<T>['schema']): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(text));
  } catch (cause) {
    throw new NoObjectGeneratedError('The model output is not valid JSON.', text, { cause });
  }
  if (!isZod(schema)) {
    const problems = compileJsonSchema(schema)(parsed);
    if (problems.length > 0) {
      throw new NoObjectGeneratedError(
        `The model output does not match the schema: ${problems.join('; ')}.`,
        text,
      );
    }
    return parsed as T;
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new NoObjectGeneratedError(
      `The model output does not match the schema: ${z.prettifyError(result.error)}`,
      text,
      { cause: result.error },
    );
  }
  return result.data as T;
}

/** Structured output: `output` is the parsed, validated object, `text` the raw JSON. Not retried on mismatch. */
export async function generateObject<T>(
  client: Completer,
  options: GenerateObjectOptions<T>,
): Promise<GenerateResult<T>> {
  const request = objectRequest(options);
  const response: Response = await client.complete(request, callOptions(options, options.abortSignal));
  const output = parseObject(response.text, options.schema);
  return {
    ...resultOf([stepOf(response, [])], [...request.messages, response.message]),
    output,
  } as GenerateResult<T>;
}

/** Streams the call and yields the parsed object once the stream completes (behaviour). */
export async function* streamObject<T>(
  client: Streamer,
  options: GenerateObjectOptions<T>,
): AsyncGenerator<T> {
  const request = objectRequest(options);
  let text = '';
  let finalText: string | undefined;
  for await (const event of client.stream(request, callOptions(options, options.abortSignal))) {
    if (event.type === 'text_delta') text += event.delta;
    if (event.type === 'finish') finalText = event.response.text;
  }
  yield parseObject(finalText ?? text, options.schema);
}
