import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { RunEventFeed } from '../../src/run/run-event-feed.js';
import type { StartOptions } from '../../src/run/run-types.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { readEvents, tempDir } from '../helpers/run-helpers.js';

const PARALLEL = `digraph fanout {
  start [shape=Mdiamond]
  fan [shape=component]
  a [type="wait", delay_ms="30"]
  b [type="wait", delay_ms="10"]
  join [shape=tripleoctagon]
  after [type="wait", delay_ms="5"]
  exit [shape=Msquare]
  start -> fan
  fan -> a -> join
  fan -> b -> join
  join -> after -> exit
}`;

const registry = () =>
  createDefaultRegistry().register('wait', async ({ node }) => {
    await new Promise((resolve) => setTimeout(resolve, Number(node.extra['delay_ms'])));
    return { status: 'success' };
  });

function start(extra: Partial<StartOptions> = {}) {
  const seen: PipelineEvent[] = [];
  const also = extra.onEvent;
  const run = startPipeline({
    source: PARALLEL,
    runDir: join(tempDir(), 'run'),
    durable: false,
    backend: createSimulatedBackend(),
    interviewer: new AutoApproveInterviewer(),
    registry: registry(),
    ...extra,
    onEvent: (e) => {
      seen.push(e);
      also?.(e);
    },
  });
  return { run, seen };
}

async function collect(events: AsyncIterable<PipelineEvent>): Promise<PipelineEvent[]> {
  const out: PipelineEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('run.events(): the run as an async iterable', () => {
  it('yields every event of a run with a parallel node, in order, and ends when the run ends', async () => {
    const { run, seen } = start();
    const events = await collect(run.events());
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(events).toEqual(seen);
    expect(events).toEqual(readEvents(result.runDir));
    expect(events[0]?.kind).toBe('pipeline.start');
    expect(events.at(-1)?.kind).toBe('pipeline.finalize');
    const branchNodes = events.filter((e) => e.kind === 'node.start' && e.data['branch']);
    expect(branchNodes.map((e) => e.node_id).sort()).toEqual(['a', 'b']);
  });

  it('an iterator made mid-run or after the end replays from the first event', async () => {
    let midRun: Promise<PipelineEvent[]> | undefined;
    const { run, seen } = start({
      onEvent: (e) => {
        // Inside the callback of a branch's node.start: the history is read back from events.jsonl.
        if (!midRun && e.kind === 'node.start' && e.node_id === 'a') midRun = collect(run.events());
      },
    });
    await run.result;
    expect(midRun).toBeDefined();
    expect(await midRun).toEqual(seen);
    expect(await collect(run.events())).toEqual(seen);
  });

  it('never slows the run: a slow consumer gets everything after the run is over', async () => {
    const { run, seen } = start();
    const got: PipelineEvent[] = [];
    let finishedFirst = false;
    const consumer = (async () => {
      for await (const e of run.events()) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        got.push(e);
      }
    })();
    await run.result;
    finishedFirst = got.length < seen.length;
    await consumer;
    expect(finishedFirst).toBe(true);
    expect(got).toEqual(seen);
  });

  it('break stops the iteration early and the run goes on to the end', async () => {
    const { run, seen } = start();
    const kinds: string[] = [];
    for await (const e of run.events()) {
      kinds.push(e.kind);
      if (e.kind === 'parallel.start') break;
    }
    expect(kinds.at(-1)).toBe('parallel.start');
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(seen.length).toBeGreaterThan(kinds.length);
  });

  it('a resumed run yields its own events, from pipeline.resume', async () => {
    const runDir = join(tempDir(), 'run');
    const first = start({
      runDir,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'after') first.run.pause();
      },
    });
    expect((await first.run.result).status).toBe('paused');
    const resumed = resumePipeline({
      from: runDir,
      durable: false,
      backend: createSimulatedBackend(),
      registry: registry(),
    });
    const events = await collect(resumed.events());
    expect((await resumed.result).status).toBe('completed');
    expect(events[0]?.kind).toBe('pipeline.resume');
    expect(events.at(-1)?.kind).toBe('pipeline.finalize');
    expect(readEvents(runDir).slice(-events.length)).toEqual(events);
  });
});

describe('run.events() after a crash tore the last line of events.jsonl', () => {
  it("the resume's events start on a line of their own and replay whole", async () => {
    const runDir = join(tempDir(), 'run');
    const first = start({
      runDir,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'after') first.run.pause();
      },
    });
    await first.run.result;
    appendFileSync(join(runDir, 'events.jsonl'), '{"kind":"node.sta');
    const resumed = resumePipeline({ from: runDir, durable: false, registry: registry() });
    const events = await collect(resumed.events());
    expect((await resumed.result).status).toBe('completed');
    expect(events[0]?.kind).toBe('pipeline.resume');
    const lines = readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n');
    expect(lines.at(-events.length - 1)).toBe('{"kind":"node.sta');
    expect(lines.slice(-events.length).map((l) => JSON.parse(l))).toEqual(events);
  });
});

describe('RunEventFeed', () => {
  const event = (kind: string) => ({ kind, data: {}, timestamp: new Date().toISOString() }) as PipelineEvent;

  it('leaves no subscriber behind after a break, and none once the run ended', async () => {
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, '');
    const write = (e: PipelineEvent) =>
      writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(e)}\n`);
    const feed = new RunEventFeed(file, 0, () => {});
    const publish = (kind: string) => {
      const e = event(kind);
      write(e);
      feed.publish(e);
    };
    publish('one');
    const iterator = feed.events();
    const lingering = feed.events();
    const closedUnread = feed.events();
    // Nothing is held for an iterator nobody reads yet (or ever: a dropped one costs nothing).
    expect(feed.subscriberCount).toBe(0);
    await closedUnread.return?.();
    const reading = iterator.next();
    expect(feed.subscriberCount).toBe(1);
    expect((await reading).value?.kind).toBe('one');
    await iterator.return?.();
    expect(feed.subscriberCount).toBe(0);
    publish('two');
    expect((await lingering.next()).value?.kind).toBe('one');
    expect(feed.subscriberCount).toBe(1);
    publish('three');
    feed.end();
    expect(feed.subscriberCount).toBe(0);
    expect((await collect(lingering)).map((e) => e.kind)).toEqual(['two', 'three']);
    expect(await closedUnread.next()).toEqual({ done: true, value: undefined });
  });
});
