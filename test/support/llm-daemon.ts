// A real daemon wired to a fake LLM server (OpenAI or Anthropic wire format).
import { afterAll, beforeAll } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, type StartOptions, type TestDaemon } from "./daemon.ts";
import type { FakeLLM } from "./fake-llm.ts";
import { startFakeAnthropic } from "./fake-anthropic.ts";
import { startFakeOpenAI } from "./fake-openai.ts";

export type ProviderFlavour = "openai" | "anthropic";

/** `extra` goes into `[system.crab]`, `providerExtra` into `[provider.fake]`. */
export function providerConfig(flavour: ProviderFlavour, fake: FakeLLM, extra = "", providerExtra = ""): string {
  const kind = flavour === "anthropic" ? 'kind = "anthropic"\n' : "";
  return `[provider.fake]
${kind}api_key = "test-key-not-a-secret"
base_url = "${fake.url}"
models = ["fake-model"]
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
  const fake = flavour === "anthropic" ? await startFakeAnthropic() : await startFakeOpenAI();
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
