// A real daemon wired to a fake LLM server (OpenAI or Anthropic wire format).
import { afterAll, beforeAll } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, type StartOptions, type TestDaemon } from "./daemon.ts";
import type { FakeLLM } from "./fake-llm.ts";
import { startFakeAnthropic } from "./fake-anthropic.ts";
import { startFakeBedrock } from "./fake-bedrock.ts";
import { startFakeGemini } from "./fake-gemini.ts";
import { startFakeOpenAI } from "./fake-openai.ts";

export type ProviderFlavour = "openai" | "anthropic" | "google" | "bedrock" | "azure";

/** The key every flavour's config carries (Bedrock: as its secret key). */
export const TEST_KEY = "test-key-not-a-secret";

export function startFake(flavour: ProviderFlavour): Promise<FakeLLM> {
  switch (flavour) {
    case "anthropic":
      return startFakeAnthropic();
    case "google":
      return startFakeGemini();
    case "bedrock":
      return startFakeBedrock();
    default:
      return startFakeOpenAI();
  }
}

/** The `[provider.<name>]` table of a provider of `flavour` served by `fake`. */
export function providerTable(name: string, flavour: ProviderFlavour, fake: FakeLLM, models = ["fake-model"]): string {
  const keys: Record<ProviderFlavour, string> = {
    openai: `api_key = "${TEST_KEY}"\nbase_url = "${fake.url}"`,
    anthropic: `kind = "anthropic"\napi_key = "${TEST_KEY}"\nbase_url = "${fake.url}"`,
    google: `kind = "google"\napi_key = "${TEST_KEY}"\nbase_url = "${fake.url}"`,
    bedrock: `kind = "bedrock"\nregion = "us-east-1"\naccess_key = "AKIDFAKE"\nsecret_key = "${TEST_KEY}"\nbase_url = "${fake.url}"`,
    azure: `kind = "azure"\napi_key = "${TEST_KEY}"\nbase_url = "${new URL(fake.url).origin}"\napi_version = "2024-10-21"`,
  };
  return `[provider.${name}]
${keys[flavour]}
models = ${JSON.stringify(models)}`;
}

/** `extra` goes into `[system.crab]`, `providerExtra` into `[provider.fake]`. */
export function providerConfig(flavour: ProviderFlavour, fake: FakeLLM, extra = "", providerExtra = ""): string {
  return `${providerTable("fake", flavour, fake)}
max_retries = 2
timeout = 10
${providerExtra}

[system.crab]
model = "fake-model"
${extra}`;
}

export interface LlmDaemon {
  daemon: TestDaemon;
  fake: FakeLLM;
  stop(): Promise<void>;
}

export interface LlmDaemonOptions extends StartOptions {
  /** Keys of `[system.crab]`. */
  extraConfig?: string;
  /** Keys of `[provider.fake]`. */
  providerConfig?: string;
}

export async function startLlmDaemon(flavour: ProviderFlavour, options: LlmDaemonOptions = {}): Promise<LlmDaemon> {
  const fake = await startFake(flavour);
  const daemon = await startDaemon({ ...options, config: providerConfig(flavour, fake, options.extraConfig, options.providerConfig) });
  return {
    daemon,
    fake,
    async stop() {
      await daemon.stop();
      await fake.stop();
    },
  };
}

export interface LlmDaemonFixture {
  readonly env: LlmDaemon;
  readonly client: Client;
}

/**
 * The usual file-level setup: a daemon on a fake provider and one client,
 * started before the file's tests and torn down (home removed) after them.
 */
export function useLlmDaemon(flavour: ProviderFlavour, options: LlmDaemonOptions = {}): LlmDaemonFixture {
  let env: LlmDaemon | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    env = await startLlmDaemon(flavour, options);
    client = await env.daemon.client();
  });
  afterAll(async () => {
    await client?.close();
    await env?.stop();
    if (env) cleanup(env.daemon.home);
  });
  return {
    get env() {
      if (!env) throw new Error("the daemon is not started yet");
      return env;
    },
    get client() {
      if (!client) throw new Error("the daemon is not started yet");
      return client;
    },
  };
}
