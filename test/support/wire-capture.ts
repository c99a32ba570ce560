// A server that records each request (method, URL, body, the named headers)
// and answers with whatever the test sets: for holding a provider adapter's
// requests and error handling to its SDK's (test/model/*-wire.test.ts).
import { ProviderError } from "../../src/model/errors.ts";
import type { ModelRequest } from "../../src/model/types.ts";

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
