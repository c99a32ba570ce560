// No adapter loads a provider SDK: each speaks HTTP itself. Checked in a
// fresh process, by module path in its registry, after calling each kind.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO } from "../support/daemon.ts";
import { runCommand } from "../support/cli.ts";
import { startFakeAnthropic } from "../support/fake-anthropic.ts";
import { startFakeBedrock } from "../support/fake-bedrock.ts";
import { startFakeGemini } from "../support/fake-gemini.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";

let fakes: Record<"OPENAI_URL" | "ANTHROPIC_URL" | "GEMINI_URL" | "BEDROCK_URL", FakeLLM>;
beforeAll(async () => {
  fakes = {
    OPENAI_URL: await startFakeOpenAI(),
    ANTHROPIC_URL: await startFakeAnthropic(),
    GEMINI_URL: await startFakeGemini(),
    BEDROCK_URL: await startFakeBedrock(),
  };
});
afterAll(async () => {
  for (const f of Object.values(fakes)) await f.stop();
});

async function probe(...models: string[]): Promise<Record<string, string[]>> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [key, fake] of Object.entries(fakes)) env[key] = fake.url;
  const out = await runCommand([process.execPath, join(REPO, "test/support/sdk-probe.ts"), ...models], { env });
  expect(out.stderr).toBe("");
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout);
}

test("building a registry over every kind and calling Gemini and Bedrock loads no SDK", async () => {
  expect(await probe("gemini", "nova")).toEqual({
    before: [],
    "after gemini: ok": [],
    "after nova: ok": [],
  });
});

test("calling OpenAI and Anthropic loads no SDK", async () => {
  expect(await probe("gpt", "claude")).toEqual({
    before: [],
    "after gpt: ok": [],
    "after claude: ok": [],
  });
});
