import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';

/**
 * A local OTLP/HTTP collector for traces: takes `POST /v1/traces` as the OTLP JSON encoding the
 * JavaScript exporter sends (hex trace and span ids, attributes as typed `AnyValue`s, times as
 * nanosecond strings) and keeps the spans, decoded. Anything it cannot parse fails the test.
 */
const anyValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.object({ stringValue: z.string() }).transform((v) => v.stringValue),
    z.object({ intValue: z.union([z.string(), z.number()]) }).transform((v) => Number(v.intValue)),
    z.object({ doubleValue: z.number() }).transform((v) => v.doubleValue),
    z.object({ boolValue: z.boolean() }).transform((v) => v.boolValue),
    z
      .object({ arrayValue: z.object({ values: z.array(anyValue).optional() }) })
      .transform((v) => v.arrayValue.values ?? []),
  ]),
);
const keyValues = z
  .array(z.object({ key: z.string(), value: anyValue }))
  .optional()
  .transform((list) => Object.fromEntries((list ?? []).map((kv) => [kv.key, kv.value])));
const nanos = z.union([z.string(), z.number()]).transform((v) => Number(BigInt(v) / 1_000_000n));
const spanSchema = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z.string().optional(),
  name: z.string(),
  kind: z.number().optional(),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos,
  attributes: keyValues,
  links: z
    .array(z.object({ traceId: z.string(), spanId: z.string(), attributes: keyValues }))
    .optional()
    .transform((links) => links ?? []),
  status: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
const exportRequest = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: keyValues }).optional(),
      scopeSpans: z.array(z.object({ spans: z.array(spanSchema).optional() })),
    }),
  ),
});

export type ReceivedSpan = z.infer<typeof spanSchema> & { resource: Record<string, unknown> };

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  origin: string;
  spans: ReceivedSpan[];
  /** Requests' content types, as they arrived. */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      contentTypes.push(String(request.headers['content-type']));
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const parsed = exportRequest.parse(JSON.parse(body.toString('utf8')));
      for (const resourceSpans of parsed.resourceSpans)
        for (const scope of resourceSpans.scopeSpans)
          for (const span of scope.spans ?? [])
            spans.push({ ...span, resource: resourceSpans.resource?.attributes ?? {} });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
