// Shared helpers of the model tests.
import { ModelRegistry } from "../../src/model/registry.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { Model, ModelResponse, StreamChunk } from "../../src/model/types.ts";

export const KEY = "sk-test-SECRET-0123456789";

/** A registry over one provider, with millisecond backoff so retry tests stay fast. */
export function modelFor(settings: Partial<ProviderSettings> & Pick<ProviderSettings, "kind">, model = "m"): Model {
  const registry = new ModelRegistry([{ name: "p", models: [model], apiKey: KEY, ...settings }], {
    retry: { baseDelayMs: 1 },
  });
  return registry.resolve(model).model;
}

export async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

/** Assembles a stream the way the agent loop does (docs/agent-loop.md#a-step). */
export function assemble(chunks: StreamChunk[]): ModelResponse & { signature?: string } {
  let content = "";
  let reasoning = "";
  let signature: string | undefined;
  const calls: { id: string; name: string; arguments: string }[] = [];
  const res: ModelResponse & { signature?: string } = { content: "", toolCalls: [] };
  for (const c of chunks) {
    if (c.type === "text") content += c.text;
    else if (c.type === "thinking") {
      reasoning += c.text;
      if (c.signature) signature = c.signature;
    } else if (c.type === "tool_call") {
      const call = (calls[c.index] ??= { id: "", name: "", arguments: "" });
      if (c.id) call.id = c.id;
      if (c.name) call.name = c.name;
      if (c.arguments) call.arguments += c.arguments;
    } else if (c.type === "usage") res.usage = c.usage;
    else if (c.type === "finish") res.finishReason = c.reason;
  }
  res.content = content;
  if (reasoning) res.reasoning = reasoning;
  if (signature) res.signature = signature;
  res.toolCalls = calls;
  return res;
}

/** Runs `f` and returns the error it throws (fails the test if it does not throw). */
export async function failure(f: () => Promise<unknown>): Promise<Error> {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure, but the call succeeded");
}
