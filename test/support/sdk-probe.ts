// Run as its own process by test/model/lazy-load.test.ts: builds a registry
// over every provider kind, calls the ones named in argv (against the fakes
// whose URLs are in the environment), then prints which provider SDKs are in
// the module registry (Bun lists ES modules in require.cache too).
import { ModelRegistry } from "../../src/model/registry.ts";

export const SDK_PACKAGES = ["openai", "@anthropic-ai/sdk", "@google/genai", "@aws-sdk/client-bedrock-runtime"] as const;

function loadedSdks(): string[] {
  const paths = Object.keys(require.cache);
  return SDK_PACKAGES.filter((pkg) => paths.some((p) => p.includes(`/node_modules/${pkg}/`)));
}

if (import.meta.main) {
  const env = process.env;
  const registry = new ModelRegistry(
    [
      { name: "o", kind: "openai", apiKey: "k-test", baseUrl: env.OPENAI_URL, models: ["gpt"] },
      { name: "a", kind: "anthropic", apiKey: "k-test", baseUrl: env.ANTHROPIC_URL, models: ["claude"] },
      { name: "g", kind: "google", apiKey: "k-test", baseUrl: env.GEMINI_URL, models: ["gemini"] },
      { name: "b", kind: "bedrock", region: "us-east-1", accessKey: "AKID", secretKey: "s-test", baseUrl: env.BEDROCK_URL, models: ["nova"] },
    ],
    { retry: { baseDelayMs: 1 } },
  );
  const report: Record<string, string[]> = { before: loadedSdks() };
  for (const model of process.argv.slice(2)) {
    const answer = await registry.resolve(model).model.complete({ model, messages: [{ role: "user", content: "hi" }] });
    report[`after ${model}: ${answer.content}`] = loadedSdks();
  }
  console.log(JSON.stringify(report));
}
