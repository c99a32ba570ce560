// The models setup offers, from each provider's own list-models call: the
// request it makes, and what it refuses to put on the user's terminal.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { listProviderModels } from "../../src/cli/setup/provider-models.ts";

let server: ReturnType<typeof Bun.serve>;
const seen: { path: string; headers: Headers }[] = [];
let body: unknown = {};

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      seen.push({ path: new URL(req.url).pathname, headers: req.headers });
      return Response.json(body);
    },
  });
});
afterAll(() => server.stop(true));
const url = () => `http://127.0.0.1:${server.port}`;

test("OpenAI-compatible: GET <base>/models with the bearer key", async () => {
  body = { data: [{ id: "gpt-4o" }, { id: "gpt-4o-mini" }, { id: "gpt-4o" }] };
  expect(await listProviderModels({ kind: "openai", baseUrl: `${url()}/v1`, apiKey: "k1" })).toEqual(["gpt-4o", "gpt-4o-mini"]);
  expect(seen.at(-1)?.path).toBe("/v1/models");
  expect(seen.at(-1)?.headers.get("authorization")).toBe("Bearer k1");
});

test("Anthropic and Gemini: their own routes and key headers", async () => {
  body = { data: [{ id: "claude-sonnet-4-5" }] };
  expect(await listProviderModels({ kind: "anthropic", baseUrl: url(), apiKey: "k2" })).toEqual(["claude-sonnet-4-5"]);
  expect(seen.at(-1)?.path).toBe("/v1/models");
  expect(seen.at(-1)?.headers.get("x-api-key")).toBe("k2");
  body = { models: [{ name: "models/gemini-2.5-pro" }] };
  expect(await listProviderModels({ kind: "google", baseUrl: url(), apiKey: "k3" })).toEqual(["gemini-2.5-pro"]);
  expect(seen.at(-1)?.path).toBe("/v1beta/models");
  expect(seen.at(-1)?.headers.get("x-goog-api-key")).toBe("k3");
});

test("a hostile list: control characters, blanks and junk never reach the terminal", async () => {
  body = { data: [{ id: "ok-model" }, { id: "\u001b[2J\u001b[31mevil" }, { id: "with space" }, { id: "" }, { id: "x".repeat(500) }, "not an object", null] };
  expect(await listProviderModels({ kind: "ollama", baseUrl: `${url()}/v1` })).toEqual(["ok-model"]);
  body = "not json at all";
  expect(await listProviderModels({ kind: "openai", baseUrl: `${url()}/v1`, apiKey: "k" })).toEqual([]);
});

test("no list for Azure and Bedrock, and none when nothing answers", async () => {
  expect(await listProviderModels({ kind: "azure", baseUrl: url(), apiKey: "k" })).toEqual([]);
  expect(await listProviderModels({ kind: "bedrock" })).toEqual([]);
  expect(await listProviderModels({ kind: "openai", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" })).toEqual([]);
});
