// The chat chunks the OpenAI adapter reads itself (src/model/openai/stream.ts)
// against the SDK's Stream.fromSSEResponse on the same bodies: the same
// chunks, and the same errors once the SDK's are mapped as the adapter mapped
// them (failures.ts).
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { Stream } from "openai/core/streaming";
import { chatChunks } from "../../src/model/openai/stream.ts";
import { ErrorBodies, toProviderError } from "../support/sdk-reference.ts";

const ctx = {
  baseUrl: "http://provider.test/v1",
  secrets: [],
  bodies: new ErrorBodies(),
  classes: OpenAI,
};

const chunk = (content: string) => JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] });

async function outcome(items: AsyncIterable<unknown>): Promise<{ items: unknown[]; error?: { message: string; kind: string; transient: boolean } }> {
  const got: unknown[] = [];
  try {
    for await (const item of items) got.push(item);
    return { items: got };
  } catch (err) {
    const e = toProviderError(err, ctx);
    return { items: got, error: { message: e.message, kind: e.kind, transient: e.transient } };
  }
}

/** A client only for the SDK's logger, silenced (it prints the data it could not parse). */
const quiet = new OpenAI({ apiKey: "k", logLevel: "off" });

function response(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream", "x-request-id": "r1" } });
}

const bodies: Record<string, string> = {
  "chunks, [DONE], then more that is ignored": `data: ${chunk("a")}\n\ndata: ${chunk("b")}\n\ndata: [DONE]\n\ndata: ${chunk("late")}\n\n`,
  "no [DONE]": `data: ${chunk("a")}\n\n`,
  "an error object after output": `data: ${chunk("a")}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
  "an error event": `event: error\ndata: {"error":{"message":"bad","type":"invalid_request_error"}}\n\n`,
  "assistants events among chunks": `event: thread.message.delta\ndata: {"x":1}\n\ndata: ${chunk("a")}\n\n`,
  "data that is not JSON": `data: ${chunk("a")}\n\ndata: {not json\n\n`,
  "comments and CRLF": `: ping\r\n\r\ndata: ${chunk("a")}\r\n\r\n`,
};

describe("chatChunks", () => {
  for (const [name, text] of Object.entries(bodies)) {
    test(`as the SDK reads it: ${name}`, async () => {
      const sdk = await outcome(Stream.fromSSEResponse(response(text), new AbortController(), quiet));
      const ours = await outcome(chatChunks(response(text)));
      // The SDK hands Assistants events on ({ event, data }); they carry no chat chunk, so the adapter never used them.
      const chat = sdk.items.filter((i) => !(typeof i === "object" && i !== null && "event" in i));
      expect(ours.items).toEqual(chat);
      expect(ours.error).toEqual(sdk.error);
    });
  }

  test("an aborted body ends the chunks quietly, as the SDK's do", async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`data: ${chunk("a")}\n\n`));
        controller.signal.addEventListener("abort", () => c.error(new DOMException("aborted", "AbortError")));
      },
    });
    const got: unknown[] = [];
    for await (const item of chatChunks(new Response(body))) {
      got.push(item);
      controller.abort();
    }
    expect(got).toHaveLength(1);
  });
});
