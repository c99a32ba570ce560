// Azure OpenAI through the OpenAI adapter (the URL and key header of the
// `openai` SDK's AzureOpenAI client) against the fake server's deployment
// routes (`/openai/deployments/<name>/chat/completions?api-version=`).
import { afterAll, beforeEach, expect, test } from "bun:test";
import { DEFAULT_AZURE_API_VERSION } from "../../src/model/openai/adapter.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { KEY, assemble, collect, failure, modelFor } from "./helpers.ts";

let fake: FakeLLM;
let endpoint: string;
beforeEach(async () => {
  await fake?.stop();
  fake = await startFakeOpenAI();
  endpoint = new URL(fake.url).origin; // the resource endpoint, as https://<name>.openai.azure.com
});
afterAll(() => fake?.stop());

const hello = { model: "my-deployment", messages: [{ role: "user" as const, content: "hi" }] };
const azure = (extra: { apiVersion?: string; maxRetries?: number } = {}) => modelFor({ kind: "azure", baseUrl: endpoint, ...extra }, "my-deployment");

test("a stream goes to the deployment route with api-version and the api-key header", async () => {
  fake.script({ text: "hello from azure", thinking: "hm" });
  const answer = assemble(await collect(azure({ apiVersion: "2025-01-01-preview" }).stream({ ...hello, thinking: true })));
  expect(answer.content).toBe("hello from azure");
  expect(answer.reasoning).toBe("hm");
  expect(answer.usage?.promptTokens).toBe(10);
  const req = fake.requests[0];
  expect(req?.path).toBe("/openai/deployments/my-deployment/chat/completions");
  expect(new URLSearchParams(req?.query).get("api-version")).toBe("2025-01-01-preview");
  expect(req?.headers["api-key"]).toBe(KEY);
  expect(req?.headers.authorization).toBeUndefined();
});

test("without api_version the default goes on the wire; a tool call comes back", async () => {
  fake.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls"}' }] });
  const res = await azure().complete(hello);
  expect(res.toolCalls).toEqual([{ id: "call_1", name: "bash", arguments: '{"command":"ls"}' }]);
  expect(new URLSearchParams(fake.requests[0]?.query).get("api-version")).toBe(DEFAULT_AZURE_API_VERSION);
});

test("429 then success is retried", async () => {
  fake.script({ error: { status: 429, message: "rate limited" } }, { text: "ok now" });
  expect(assemble(await collect(azure().stream(hello))).content).toBe("ok now");
  expect(fake.requests.length).toBe(2);
});

test("401 names the provider and never prints the key", async () => {
  fake.script({ error: { status: 401, message: `Access denied due to invalid subscription key ${KEY}` } });
  const err = await failure(() => collect(azure().stream(hello)));
  expect(err.message).toStartWith("provider 'p' refused the API key (HTTP 401)");
  expect(err.message).not.toContain(KEY);
});

test("404 on a deployment says which model at which provider", async () => {
  fake.script({ error: { status: 404, message: "The API deployment for this resource does not exist." } });
  const err = await failure(() => azure({ maxRetries: 0 }).complete(hello));
  expect(err.message).toStartWith("model 'my-deployment' not found at provider 'p' (HTTP 404)");
});

test("a stream cut mid-answer is an error", async () => {
  fake.script({ text: "a b c d e f", cutAfterChunks: 3 });
  const err = await failure(() => collect(azure({ maxRetries: 0 }).stream(hello)));
  expect(err.message).toStartWith("provider 'p'");
});
