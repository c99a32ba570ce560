// `crabtalk setup` at a terminal, with @clack/prompts: pick a preset (or an
// OpenAI-compatible endpoint at any base URL), give the key (masked) or the
// variable that holds it, pick a model from the
// provider's own list (typed when it cannot be listed), then write it and
// send a test message.
import * as p from "@clack/prompts";
import type { Client } from "../../protocol/client.ts";
import type { ProviderPresetInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { PROVIDER_KIND_TABLE, asksForKey, type ProviderKind } from "../../base/provider-kinds.ts";
import { testMessage, writeProvider, type SetupChoice } from "./apply.ts";
import { listProviderModels } from "./provider-models.ts";
import { kindName } from "../../protocol/provider-kind.ts";

class Cancelled extends Error {}

/** The prompt's value, or a Cancelled error when the user pressed Ctrl-C / Esc. */
function answered<T>(value: T): Exclude<T, symbol> {
  if (p.isCancel(value)) throw new Cancelled("setup cancelled");
  return value as Exclude<T, symbol>;
}

/** Runs the whole interactive setup; returns the exit status. */
export async function interactiveSetup(client: Client, env: Record<string, string | undefined>): Promise<number> {
  p.intro("crabtalk setup");
  try {
    const choice = await ask(client, env);
    const writing = p.spinner();
    writing.start(`writing provider '${choice.name}' and making '${choice.model}' the active model`);
    await writeProvider(client, choice);
    writing.stop(`provider '${choice.name}' saved; active model: ${choice.model}`);
    const testing = p.spinner();
    testing.start("sending a test message");
    const result = await testMessage(client);
    if (!result.ok) {
      testing.error("the test message failed");
      p.log.error(result.error);
      p.outro("the provider is saved: fix the problem above, then run crabtalk setup again or edit config.toml");
      return 1;
    }
    testing.stop(`${result.model} answered`);
    p.log.message(result.answer);
    p.outro("all set: try crabtalk chat");
    return 0;
  } catch (err) {
    if (err instanceof Cancelled) {
      p.cancel("setup cancelled: nothing was changed");
      return 1;
    }
    throw err;
  }
}

/** The choice after the presets: any server that speaks the OpenAI API, at a base URL the user gives. */
const COMPATIBLE = "openai-compatible";
const COMPATIBLE_LABEL = "OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp, LM Studio, any base URL)";
const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

async function ask(client: Client, env: Record<string, string | undefined>): Promise<SetupChoice> {
  const presets = await client.listProviderPresets();
  const picked: ProviderPresetInfo | typeof COMPATIBLE = answered(
    await p.select<ProviderPresetInfo | typeof COMPATIBLE>({
      message: "Which provider?",
      options: [
        ...presets.map((x) => ({ value: x, label: x.name, hint: `${kindName(x.kind)}, e.g. ${x.defaultModel}` })),
        { value: COMPATIBLE, label: COMPATIBLE_LABEL, hint: "base URL, optional key, model" },
      ],
    }),
  );
  if (picked === COMPATIBLE) return askCompatible(env);
  const preset = picked;
  const kind = kindName(preset.kind);
  const { apiKey, keyValue } = await askKey(kind, env);
  const region = PROVIDER_KIND_TABLE[kind].config.required?.includes("region")
    ? answered(await p.text({ message: "AWS region", defaultValue: "us-east-1", placeholder: "us-east-1" }))
    : undefined;
  const baseUrl = preset.fixedBaseUrl ? undefined : await askBaseUrl(kind, preset.baseUrl);
  const model = await askModel({ kind, baseUrl, apiKey: keyValue }, preset.defaultModel);
  return { name: preset.name, kind, apiKey, baseUrl, region, model };
}

/**
 * An OpenAI-compatible server: its base URL, a name for it, a key only if it
 * wants one, and a model from its own list. Written as kind `openai`.
 */
async function askCompatible(env: Record<string, string | undefined>): Promise<SetupChoice> {
  const baseUrl = answered(
    await p.text({
      message: "Base URL of the OpenAI-compatible API",
      placeholder: "http://localhost:8000/v1",
      validate: (v) => {
        const url = (v ?? "").trim();
        if (!url) return "the base URL is required, e.g. http://localhost:11434/v1";
        return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) ? undefined : "not an http(s) URL";
      },
    }),
  ).trim();
  const name =
    answered(
      await p.text({
        message: "A name for it in config.toml",
        defaultValue: "local",
        placeholder: "local",
        validate: (v) => (PROVIDER_NAME.test((v ?? "").trim() || "local") ? undefined : "letters, digits, - and _ only"),
      }),
    ).trim() || "local";
  const { apiKey, keyValue } = await askKey("openai", env, { optional: true });
  const model = await askModel({ kind: "openai", baseUrl, apiKey: keyValue }, "");
  return { name, kind: "openai", apiKey, baseUrl, model };
}

/** The config value (literal or `${VAR}`) and the key itself when known here (to list models). */
async function askKey(
  kind: ProviderKind,
  env: Record<string, string | undefined>,
  opts: { optional?: boolean } = {},
): Promise<{ apiKey?: string; keyValue?: string }> {
  if (!asksForKey(kind)) return {};
  const vars = PROVIDER_KIND_TABLE[kind].credentials.vars;
  const suggested = opts.optional ? "API_KEY" : (vars.find((v) => env[v]?.trim()) ?? vars[0] ?? "API_KEY");
  const how = answered(
    await p.select({
      message: "API key",
      options: [
        ...(opts.optional ? [{ value: "none", label: "no key", hint: "most local servers need none" }] : []),
        { value: "paste", label: "paste the key", hint: "stored in config.toml (mode 0600)" },
        { value: "env", label: "use an environment variable", hint: `config.toml then holds \${${suggested}}` },
      ],
      initialValue: opts.optional ? "none" : env[suggested]?.trim() ? "env" : "paste",
    }),
  );
  if (how === "none") return {};
  if (how === "env") {
    const name = answered(
      await p.text({
        message: "Variable name (it must be set where the daemon runs)",
        defaultValue: suggested,
        placeholder: suggested,
        validate: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v || suggested) ? undefined : "letters, digits and _ only"),
      }),
    );
    return { apiKey: `\${${name}}`, keyValue: env[name] };
  }
  const key = answered(await p.password({ message: "Paste the key", validate: (v) => (v?.trim() ? undefined : "the key is empty") }));
  return { apiKey: key.trim(), keyValue: key.trim() };
}

async function askBaseUrl(kind: ProviderKind, suggested: string): Promise<string | undefined> {
  // A kind whose preset names an endpoint prompt (Azure's resource endpoint) refuses none.
  const required = PROVIDER_KIND_TABLE[kind].preset?.endpointPrompt;
  const value = answered(
    await p.text({
      message: required ? `${required.label} (${required.example})` : "Base URL",
      defaultValue: suggested,
      placeholder: suggested || (required ? required.example : "(the provider's default)"),
      validate: (v) => {
        const url = (v ?? "").trim() || suggested;
        if (!url) return required ? "the endpoint is required" : undefined;
        return URL.canParse(url) ? undefined : "not a URL";
      },
    }),
  );
  return value.trim() || suggested || undefined;
}

async function askModel(access: Parameters<typeof listProviderModels>[0], suggested: string): Promise<string> {
  const listing = p.spinner();
  listing.start("asking the provider for its models");
  const models = await listProviderModels(access);
  listing.stop(models.length > 0 ? `${models.length} models offered` : "the provider did not list its models");
  const OTHER = "\u0000other";
  if (models.length > 0) {
    const picked = answered(
      await p.select({
        message: "Which model?",
        options: [...models.map((m) => ({ value: m, label: m })), { value: OTHER, label: "another model (type its name)" }],
        initialValue: models.includes(suggested) ? suggested : models[0],
        maxItems: 12,
      }),
    );
    if (picked !== OTHER) return picked;
  }
  const typed = answered(
    await p.text({
      message: "Model name",
      defaultValue: suggested,
      placeholder: suggested || "as the server names it",
      validate: (v) => ((v ?? "").trim() || suggested ? undefined : "the model name is required"),
    }),
  );
  return typed.trim() || suggested;
}
