// A server that records each request (method, URL, body, the named headers)
// and answers with whatever the test sets: for holding a provider adapter's
// requests and error handling to its SDK's (test/model/*-wire.test.ts).

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
export const jsonReply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A body that never ends; the server drops it when the client goes. */
export const endlessReply = () =>
  new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { headers: { "content-type": "text/event-stream" } });
