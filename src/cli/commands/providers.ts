// `crabtalk providers …` and `crabtalk models …` over the provider operations.
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { ResourceKind } from "../../protocol/gen/crabtalk_pb.ts";
import { kindName } from "../../protocol/provider-kind.ts";
import { PROVIDER_KINDS } from "../../base/provider-kinds.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { toPlain } from "../plain-json.ts";
import { formatTable } from "../table.ts";
import { action } from "./run.ts";

const RESOURCE_KINDS: Record<string, ResourceKind> = {
  provider: ResourceKind.PROVIDER,
  mcp: ResourceKind.MCP,
  skill: ResourceKind.SKILL,
};

export function registerProviderCommands(program: Command, conn: () => ConnectOptions): void {
  const providers = program
    .command("providers")
    .description("list, add, change and remove LLM providers ([provider.NAME] in config.toml)")
    .addHelpText(
      "after",
      `
A provider definition is JSON with the keys of a [provider.NAME] table, e.g.
  {"kind": "anthropic", "api_key": "\${ANTHROPIC_API_KEY}", "models": ["claude-sonnet-4-5"]}
Secrets are shown as <redacted>; sending <redacted> back keeps the stored value.`,
    );

  providers
    .command("list")
    .description("every configured provider, with its definition (secrets redacted)")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const list = await withClient(conn(), (c) => c.listProviders());
        if (opts.json) return void console.log(JSON.stringify(toPlain(list)));
        const rows = list.map((p) => [p.name, p.active ? "yes" : "", p.enabled ? "yes" : "no", p.config]);
        console.log(formatTable(["NAME", "ACTIVE", "ENABLED", "DEFINITION"], rows));
      }),
    );

  providers
    .command("set")
    .description("add a provider or replace its definition")
    .argument("<name>", "provider name")
    .argument("<definition>", "JSON definition, or @FILE to read it from a file, or - for standard input")
    .action(
      action(async (name: string, definition: string) => {
        const json = definition === "-" ? await Bun.stdin.text() : definition.startsWith("@") ? readFileSync(definition.slice(1), "utf8") : definition;
        const [saved] = await withClient(conn(), (c) => c.setProvider(name, json));
        console.log(`provider ${saved.name} saved: ${saved.config}`);
      }),
    );

  providers
    .command("add")
    .description("add a provider from flags (the first provider's first model becomes the active one)")
    .argument("<name>", "provider name, e.g. openai")
    .requiredOption("--model <models...>", "model(s) it serves")
    .option("--kind <kind>", `API kind: ${PROVIDER_KINDS.join(", ")}`, "openai")
    .option("--base-url <url>", "API endpoint (for proxies, Ollama and compatible servers)")
    .option("--api-key-env <VAR>", "environment variable holding the API key (stored as ${VAR}, never the key)")
    .addHelpText(
      "after",
      `
Examples:
  crabtalk providers add openai --api-key-env OPENAI_API_KEY --model gpt-4o gpt-4o-mini
  crabtalk providers add local --kind ollama --base-url http://localhost:11434/v1 --model llama3`,
    )
    .action(
      action(async (name: string, opts: { model: string[]; kind: string; baseUrl?: string; apiKeyEnv?: string }) => {
        if (opts.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.apiKeyEnv)) {
          throw new Error(`--api-key-env takes the name of an environment variable, not '${opts.apiKeyEnv}'`);
        }
        const definition = {
          kind: opts.kind,
          ...(opts.baseUrl ? { base_url: opts.baseUrl } : {}),
          ...(opts.apiKeyEnv ? { api_key: `\${${opts.apiKeyEnv}}` } : {}),
          models: opts.model,
        };
        const [saved, stats] = await withClient(conn(), async (c) => [(await c.setProvider(name, JSON.stringify(definition)))[0], await c.getStats()] as const);
        console.log(`provider ${saved.name} added: ${opts.model.join(", ")}`);
        if (saved.active) console.log(`active model: ${stats.activeModel}`);
      }),
    );

  providers
    .command("delete")
    .description("remove a provider")
    .argument("<name>", "provider name")
    .action(
      action(async (name: string) => {
        await withClient(conn(), (c) => c.deleteProvider(name));
        console.log(`provider ${name} deleted`);
      }),
    );

  providers
    .command("presets")
    .description("known provider presets: kind, base URL, default model")
    .action(
      action(async () => {
        const presets = await withClient(conn(), (c) => c.listProviderPresets());
        const rows = presets.map((p) => [p.name, kindName(p.kind), p.fixedBaseUrl || p.baseUrl, p.defaultModel]);
        console.log(formatTable(["NAME", "KIND", "BASE URL", "DEFAULT MODEL"], rows));
      }),
    );

  const models = program.command("models").description("list models, or choose the active one");
  models
    .command("list", { isDefault: true })
    .description("every model of every provider")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const list = await withClient(conn(), (c) => c.listModels());
        if (opts.json) return void console.log(JSON.stringify(toPlain(list)));
        const rows = list.map((m) => [
          m.active ? "*" : "",
          m.name,
          m.provider,
          kindName(m.kind),
          m.contextLimit ? String(m.contextLimit) : "",
          m.enabled ? "" : "disabled",
        ]);
        console.log(formatTable(["", "MODEL", "PROVIDER", "KIND", "CONTEXT", ""], rows));
      }),
    );
  models
    .command("use")
    .description("make a model the active one ([system.crab] model)")
    .argument("<model>", "model name (see crabtalk models)")
    .action(
      action(async (model: string) => {
        await withClient(conn(), (c) => c.setActiveModel(model));
        console.log(`active model: ${model}`);
      }),
    );

  for (const [verb, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    program
      .command(verb)
      .description(`${verb} a provider, MCP server or skill ([disabled] in config.toml)`)
      .argument("<kind>", "provider, mcp or skill")
      .argument("<name>", "its name")
      .action(
        action(async (kind: string, name: string) => {
          const resource = RESOURCE_KINDS[kind];
          if (resource === undefined) throw new Error(`unknown kind '${kind}': use provider, mcp or skill`);
          await withClient(conn(), (c) => c.setEnabled(resource, name, enabled));
          console.log(`${kind} ${name} ${enabled ? "enabled" : "disabled"}`);
        }),
      );
  }
}
