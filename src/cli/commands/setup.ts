// `crabtalk setup`: configure a provider and the active model — interactive
// at a terminal, or in one line with --preset and --model.
import type { Command } from "commander";
import type { Client } from "../../protocol/client.ts";
import { connectClient, type ConnectOptions } from "../connect.ts";
import { testMessage, writeProvider, type SetupChoice } from "../setup/apply.ts";
import { asksForKey } from "../../base/provider-kinds.ts";
import { kindName } from "../../protocol/provider-kind.ts";
import { action } from "./run.ts";

export interface SetupOptions {
  preset?: string;
  apiKeyEnv?: string;
  model?: string;
  baseUrl?: string;
  name?: string;
  test: boolean;
}

export function registerSetupCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("setup")
    .description("configure a provider and the active model (interactive at a terminal)")
    .option("--preset <name>", "provider preset (see crabtalk providers presets): setup without questions")
    .option("--api-key-env <var>", "environment variable holding the key; config.toml gets ${VAR}")
    .option("--model <name>", "the model to use (required with --preset)")
    .option("--base-url <url>", "the provider's base URL, when not the preset's")
    .option("--name <name>", "provider name in config.toml (default: the preset's name)")
    .option("--no-test", "do not send a test message afterwards")
    .addHelpText(
      "after",
      `
At a terminal, setup asks for a preset, the key (pasted, masked, or the name
of an environment variable) and a model (listed by the provider when it can),
writes the provider and makes the model active, then sends a test message.
The daemon must be running (crabtalk start); the key variable must be set in
the daemon's environment.

Exit status: 0 configured and the test message answered, 1 otherwise.

Examples:
  crabtalk setup
  crabtalk setup --preset openai --api-key-env OPENAI_API_KEY --model gpt-4o
  crabtalk setup --preset ollama --model llama3.1:8b --base-url http://localhost:11434/v1`,
    )
    .action(action((opts: SetupOptions) => setup(opts, conn())));
}

async function setup(opts: SetupOptions, conn: ConnectOptions): Promise<number> {
  const client = await connectClient(conn);
  try {
    if (opts.preset !== undefined) return await presetSetup(client, opts);
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new Error("setup asks its questions at a terminal; in a script give --preset and --model (see crabtalk setup --help)");
    }
    const { interactiveSetup } = await import("../setup/interactive.ts");
    return await interactiveSetup(client, process.env);
  } finally {
    await client.close();
  }
}

async function presetSetup(client: Client, opts: SetupOptions): Promise<number> {
  const presets = await client.listProviderPresets();
  const preset = presets.find((p) => p.name === opts.preset);
  if (!preset) throw new Error(`unknown preset '${opts.preset}': one of ${presets.map((p) => p.name).join(", ")}`);
  if (!opts.model) throw new Error("--preset needs --model");
  const kind = kindName(preset.kind);
  if (!opts.apiKeyEnv && asksForKey(kind)) throw new Error(`preset '${preset.name}' needs --api-key-env <var>`);
  if (opts.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.apiKeyEnv)) {
    throw new Error(`--api-key-env takes a variable name, not '${opts.apiKeyEnv}'`);
  }
  const choice: SetupChoice = {
    name: opts.name ?? preset.name,
    kind,
    apiKey: opts.apiKeyEnv ? `\${${opts.apiKeyEnv}}` : undefined,
    baseUrl: opts.baseUrl ?? (preset.baseUrl || undefined),
    model: opts.model,
  };
  await writeProvider(client, choice);
  console.log(`provider '${choice.name}' saved; active model: ${choice.model}`);
  if (!opts.test) return 0;
  const result = await testMessage(client);
  if (!result.ok) {
    process.stderr.write(`crabtalk: the test message failed: ${result.error}\n`);
    return 1;
  }
  console.log(`test message answered by ${result.model}: ${result.answer}`);
  return 0;
}
