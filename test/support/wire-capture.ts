// A server that records each request (method, URL, body, the named headers)
// and answers with whatever the test sets: for holding a provider adapter's
// requests and error handling to its SDK's (test/model/*-wire.test.ts).
import { expect, test } from "bun:test";
import { ProviderError } from "../../src/model/errors.ts";
import type { ModelRequest } from "../../src/model/types.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { Adapter } from "../../src/model/adapter.ts";

export interface CapturedRequest {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string | null>;
}

export interface WireCapture {
  origin: string;
  seen: CapturedRequest[];
  /** What the server answers from now on. */
  reply: () => Response;
  stop(): Promise<void>;
}

export function startWireCapture(headerNames: readonly string[]): WireCapture {
  const capture: WireCapture = {
    origin: "",
    seen: [],
    reply: () => new Response("{}", { headers: { "content-type": "application/json" } }),
    stop: async () => server.stop(true),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const headers: Record<string, string | null> = {};
      for (const name of headerNames) headers[name] = req.headers.get(name);
      capture.seen.push({ method: req.method, url: req.url, body: await req.text(), headers });
      return capture.reply();
    },
  });
  capture.origin = `http://127.0.0.1:${server.port}`;
  return capture;
}

/** A port nothing listens on (a server was there a moment ago). */
export async function closedPort(): Promise<number> {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = server.port;
  await server.stop(true);
  return port as number;
}

/** An error response with a JSON body. */
export const jsonReply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A body that never ends; the server drops it when the client goes. */
export const endlessReply = () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { headers: { "content-type": "text/event-stream" } });

/** What a call ended with, comparable across the adapter and its SDK. */
export function outcome(err: unknown): unknown {
  if (!(err instanceof ProviderError)) return { unexpected: String(err) };
  return { error: err.message, kind: err.kind, status: err.status, transient: err.transient };
}

/** A request with everything a serializer can trip on: a system prompt, non-ASCII text, a tool call and its result, a tool. */
export const sampleRequest = (model: string, over: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: "be brief",
  messages: [
    { role: "user", content: "hi ünïcödé \u2028" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }] },
    { role: "tool", content: "a\nb", toolCallId: "c1", name: "bash" },
  ],
  tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: { command: { type: "string" } } } }],
  ...over,
});

/** Waits (5 s at most) until the server has a request. */
export async function untilSeen(wire: WireCapture): Promise<void> {
  const deadline = Date.now() + 5000;
  while (wire.seen.length === 0 && Date.now() < deadline) await Bun.sleep(5);
  if (wire.seen.length === 0) throw new Error("the server got no request within 5 s");
}

/** An adapter and its SDK, as a wire test calls them: the chunks of one call, then its outcome. */
export type WireCall = (p: ProviderSettings, request: ModelRequest, streamed: boolean) => Promise<unknown[]>;

export interface WireSides {
  wire: () => WireCapture;
  /** The provider, reached at `origin` (the capture's, or a closed port's). */
  at: (origin: string) => ProviderSettings;
  request: (over?: Partial<ModelRequest>) => ModelRequest;
  ours: WireCall;
  sdk: WireCall;
  /** The SDK said "connection … lost" of a refused connection where every adapter says "cannot connect". */
  sdkSaidLost?: boolean;
}

/** The failures before any answer, the same for every adapter: a refused connection, an abort before and during the call. */
export function connectionFailureTests(sides: WireSides): void {
  test(`a server that refuses the connection${sides.sdkSaidLost ? ": the SDK's kind and transience, said as every adapter says it" : ""}`, async () => {
    const port = await closedPort();
    const origin = `http://127.0.0.1:${port}`;
    for (const streamed of [true, false]) {
      const [ours] = (await sides.ours(sides.at(origin), sides.request(), streamed)) as { error: string }[];
      const [sdk] = (await sides.sdk(sides.at(origin), sides.request(), streamed)) as { error: string }[];
      expect(ours).toMatchObject({ kind: "connection" });
      expect(ours!.error).toStartWith(`provider error: cannot connect to ${origin}`);
      if (sides.sdkSaidLost) {
        expect({ ...ours, error: "" }).toEqual({ ...sdk!, error: "" });
        expect(sdk!.error).toStartWith(`provider error: connection to ${origin}`);
      } else expect(ours).toEqual(sdk!);
    }
  });

  test("a call the caller aborted before it began", async () => {
    for (const streamed of [true, false]) {
      const p = sides.at(sides.wire().origin);
      const signal = AbortSignal.abort();
      const ours = await sides.ours(p, sides.request({ signal }), streamed);
      expect(ours).toEqual(await sides.sdk(p, sides.request({ signal }), streamed));
      expect(ours[0]).toMatchObject({ kind: "aborted" });
    }
  });

  test("a call aborted while the server holds its answer", async () => {
    const wire = sides.wire();
    for (const streamed of [true, false]) {
      wire.reply = endlessReply;
      const controller = new AbortController();
      wire.seen.length = 0;
      const call = sides.ours(sides.at(wire.origin), sides.request({ signal: controller.signal }), streamed);
      // The server has the request, and holds the body open.
      await untilSeen(wire);
      controller.abort();
      expect((await call).at(-1)).toMatchObject({ kind: "aborted" });
    }
  });
}

/** An adapter's call as the wire tests compare it: the chunks (or the whole answer), then the error it ended with. */
export function adapterCall(create: (p: ProviderSettings) => Adapter): WireCall {
  return async (p, request, streamed) => {
    const adapter = create(p);
    const out: unknown[] = [];
    try {
      if (!streamed) {
        out.push(await adapter.complete(request));
        return out;
      }
      for await (const chunk of adapter.stream(request)) out.push(chunk);
      return out;
    } catch (err) {
      return [...out, outcome(err)];
    }
  };
}

/** Each stream answered alike by the adapter and its SDK: the same chunks and end, no secret in them. */
export function sameStreamsAsSdk(sides: WireSides, streams: Record<string, () => Response>, secrets: readonly string[]): void {
  for (const [name, make] of Object.entries(streams)) {
    test(name, async () => {
      const wire = sides.wire();
      wire.reply = make;
      const p = sides.at(wire.origin);
      const sdk = await sides.sdk(p, sides.request(), true);
      const ours = await sides.ours(p, sides.request(), true);
      expect(ours).toEqual(sdk);
      for (const secret of secrets) expect(JSON.stringify(ours)).not.toContain(secret);
    });
  }
}

/** Each error reply, streamed and whole, failing alike in the adapter and its SDK (message, kind, status, transience), no secret in the message. */
export function sameFailuresAsSdk(sides: WireSides, replies: Record<string, () => Response>, secrets: readonly string[]): void {
  for (const [name, make] of Object.entries(replies)) {
    for (const streamed of [true, false]) {
      test(`${name}, ${streamed ? "streamed" : "whole"}`, async () => {
        const wire = sides.wire();
        wire.reply = make;
        const p = sides.at(wire.origin);
        const sdk = await sides.sdk(p, sides.request(), streamed);
        const ours = await sides.ours(p, sides.request(), streamed);
        const last = ours.at(-1) as { error?: string };
        expect(last.error).toBeDefined();
        for (const secret of secrets) expect(last.error).not.toContain(secret);
        expect(ours).toEqual(sdk);
      });
    }
  }
}
