// One entry per provider kind (docs/providers.md#adding-a-provider-kind): what
// config validation, the model registry, usage prices, `crabtalk setup` and
// `crabtalk doctor` know of a kind, apart from the wire code of its API, which
// is its adapter folder in src/model/<api>/. In src/base/ because all of them
// read it and the CLI may not import the model layer (docs/architecture.md).
//
// Context windows and list prices are not here: they belong to model families,
// which cross kinds (Claude is served by anthropic and bedrock, Llama by ollama
// and bedrock), so they stay tables by model name (src/model/context-limit.ts,
// src/runtime/usage/prices.ts). The kind-level fact, that a local server's
// tokens cost nothing, is `local` below.
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  GEMINI_DEFAULT_BASE_URL,
  LLAMA_CPP_DEFAULT_BASE_URL,
  OLLAMA_DEFAULT_BASE_URL,
  OPENAI_DEFAULT_BASE_URL,
  anthropicBaseUrl,
  bedrockEndpoint,
  geminiEndpoint,
  openAICompatibleUrl,
} from "./base-url.ts";
import { anthropicModelList, geminiModelList, openAIModelList, type ModelListRequest } from "./model-lists.ts";

/** Every kind, in the order config errors and `--kind` help list them; "openai" is the default. */
export const PROVIDER_KINDS = ["openai", "anthropic", "google", "bedrock", "ollama", "azure", "llama_cpp"] as const;

export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The APIs crabtalk speaks: one adapter folder each, src/model/<api>/. */
export type ProviderApi = "openai" | "anthropic" | "gemini" | "bedrock";

/** Credential keys of `[provider.<name>]`. */
export type KeyField = "api_key" | "access_key" | "secret_key";

/** What a kind's URL handling reads of a provider. */
interface EndpointSettings {
  baseUrl?: string;
  region?: string;
}

interface ProviderKindSpec {
  /** The API it speaks: which adapter serves it. */
  api: ProviderApi;
  /** A provider of any kind whose `base_url` contains this is spoken to as this kind (a gateway in front of it). */
  claimsBaseUrlsWith?: string;
  /** Where requests go: `base_url` normalised, else the kind's default (docs/providers.md#routing-and-base-urls). */
  endpoint(p: EndpointSettings): string;
  /** What config validation requires of its table (docs/config.md#providername). */
  config: {
    /** Keys that must be set (`model_path` is also checked to exist, at load). */
    required?: readonly ("region" | "model_path")[];
    /** Two keys given both or neither. */
    pair?: readonly [KeyField, KeyField];
    /** `api_key` or `base_url` must be given. */
    keyOrBaseUrl?: boolean;
  };
  /** Its credentials, for doctor and ListProviders' key report, and for setup. */
  credentials: {
    /** The keys it is called with; none for a local server. */
    fields: readonly KeyField[];
    /** What it uses when none of `fields` is written (they are then optional). */
    otherwise?: string;
    /** With a `base_url` the key is optional (a compatible server may need none). */
    optionalWithBaseUrl?: boolean;
    /** Environment variables that usually hold the key, first choice first. */
    vars: readonly string[];
  };
  /** Runs on the user's machine: its tokens cost nothing (docs/usage.md). */
  local?: boolean;
  /**
   * Found without config when its key variable (`credentials.vars[0]`) is set
   * (docs/config.md): the variables of its base URL and model, and the model
   * used when that is unset.
   */
  detect?: { baseUrlVar: string; modelVar: string; defaultModel: string };
  /** Its `crabtalk setup` preset (ListProviderPresets, docs/providers.md#presets); presets are listed by `rank`. */
  preset?: {
    rank: number;
    /** Suggested, editable base URL ("" = none). */
    baseUrl: string;
    /** Base URL the kind always uses ("" = none): setup does not ask. */
    fixedBaseUrl: string;
    defaultModel: string;
    /** Setup asks for the endpoint and refuses none: what to call it, and an example. */
    endpointPrompt?: { label: string; example: string };
  };
  /** Its own list-models call, for setup to offer a choice; none when it has no plain one. */
  listModels?(p: EndpointSettings & { apiKey?: string }): ModelListRequest;
  /** What `crabtalk doctor --online` asks when no `base_url` is set; none: not checked. */
  probeUrl?(p: EndpointSettings): string | undefined;
}

const API_KEY = { fields: ["api_key"] } as const;

export const PROVIDER_KIND_TABLE: Readonly<Record<ProviderKind, ProviderKindSpec>> = {
  openai: {
    api: "openai",
    endpoint: (p) => openAICompatibleUrl(p.baseUrl, OPENAI_DEFAULT_BASE_URL),
    config: { keyOrBaseUrl: true },
    credentials: { ...API_KEY, optionalWithBaseUrl: true, vars: ["OPENAI_API_KEY"] },
    detect: { baseUrlVar: "OPENAI_BASE_URL", modelVar: "OPENAI_MODEL", defaultModel: "gpt-4o" },
    preset: { rank: 2, baseUrl: OPENAI_DEFAULT_BASE_URL, fixedBaseUrl: "", defaultModel: "gpt-4o" },
    listModels: (p) => openAIModelList(PROVIDER_KIND_TABLE.openai.endpoint(p), p.apiKey),
    probeUrl: () => OPENAI_DEFAULT_BASE_URL,
  },
  anthropic: {
    api: "anthropic",
    claimsBaseUrlsWith: "anthropic",
    endpoint: anthropicBaseUrl,
    config: { keyOrBaseUrl: true },
    credentials: { ...API_KEY, vars: ["ANTHROPIC_API_KEY"] },
    detect: { baseUrlVar: "ANTHROPIC_BASE_URL", modelVar: "ANTHROPIC_MODEL", defaultModel: "claude-sonnet-4-5" },
    preset: { rank: 1, baseUrl: "", fixedBaseUrl: "https://api.anthropic.com/v1", defaultModel: "claude-sonnet-4-5-20250514" },
    listModels: (p) => anthropicModelList(anthropicBaseUrl(p), p.apiKey),
    probeUrl: () => ANTHROPIC_DEFAULT_BASE_URL,
  },
  google: {
    api: "gemini",
    endpoint: (p) => geminiEndpoint(p).baseUrl,
    config: { keyOrBaseUrl: true },
    credentials: { ...API_KEY, vars: ["GEMINI_API_KEY", "GOOGLE_API_KEY"] },
    preset: { rank: 3, baseUrl: "", fixedBaseUrl: "https://generativelanguage.googleapis.com/v1beta", defaultModel: "gemini-2.5-pro" },
    listModels: (p) => geminiModelList(geminiEndpoint(p), p.apiKey),
    probeUrl: () => GEMINI_DEFAULT_BASE_URL,
  },
  bedrock: {
    api: "bedrock",
    endpoint: bedrockEndpoint,
    config: { required: ["region"], pair: ["access_key", "secret_key"] },
    credentials: { fields: ["access_key", "secret_key"], otherwise: "the AWS default credential chain", vars: [] },
    // No list: Bedrock wants signed requests.
    probeUrl: (p) => (p.region ? bedrockEndpoint(p) : undefined),
  },
  ollama: {
    api: "openai",
    endpoint: (p) => openAICompatibleUrl(p.baseUrl, OLLAMA_DEFAULT_BASE_URL, { originGetsV1: true }),
    config: {},
    credentials: { fields: [], vars: [] },
    local: true,
    preset: { rank: 4, baseUrl: OLLAMA_DEFAULT_BASE_URL, fixedBaseUrl: "", defaultModel: "llama3" },
    listModels: (p) => openAIModelList(PROVIDER_KIND_TABLE.ollama.endpoint(p), p.apiKey),
    probeUrl: () => "http://localhost:11434",
  },
  azure: {
    api: "openai",
    endpoint: (p) => openAICompatibleUrl(p.baseUrl, OPENAI_DEFAULT_BASE_URL),
    config: { keyOrBaseUrl: true },
    credentials: { ...API_KEY, vars: ["AZURE_OPENAI_API_KEY"] },
    preset: {
      rank: 5,
      baseUrl: "",
      fixedBaseUrl: "",
      defaultModel: "gpt-4o",
      endpointPrompt: { label: "Resource endpoint", example: "https://<name>.openai.azure.com" },
    },
    // No list: Azure lists deployments only through its management API.
  },
  llama_cpp: {
    api: "openai",
    endpoint: (p) => openAICompatibleUrl(p.baseUrl, LLAMA_CPP_DEFAULT_BASE_URL),
    config: { required: ["model_path"] },
    credentials: { fields: [], vars: [] },
    local: true,
    listModels: (p) => openAIModelList(PROVIDER_KIND_TABLE.llama_cpp.endpoint(p), p.apiKey),
  },
};

/** The entry of a kind given as text (from JSON or a test), or undefined for an unknown one. */
export function providerKindSpec(kind: string): ProviderKindSpec | undefined {
  return Object.hasOwn(PROVIDER_KIND_TABLE, kind) ? PROVIDER_KIND_TABLE[kind as ProviderKind] : undefined;
}

/** The kind whose API a provider speaks: one whose base-URL mark its `base_url` contains, else its own (docs/providers.md#routing-and-base-urls). */
export function effectiveKind(p: { kind: ProviderKind; baseUrl?: string }): ProviderKind {
  if (PROVIDER_KIND_TABLE[p.kind].claimsBaseUrlsWith !== undefined) return p.kind;
  const url = p.baseUrl ?? "";
  const claimed = (k: ProviderKind): boolean => {
    const mark = PROVIDER_KIND_TABLE[k].claimsBaseUrlsWith;
    return mark !== undefined && url.includes(mark);
  };
  return PROVIDER_KINDS.find(claimed) ?? p.kind;
}

/** Where a provider's requests go, for the API it actually speaks (a `base_url` naming anthropic speaks Anthropic's). */
export function endpointOf(p: EndpointSettings & { kind: ProviderKind }): string {
  return PROVIDER_KIND_TABLE[effectiveKind(p)].endpoint(p);
}

/** Setup asks for an API key (kinds without one: local servers, Bedrock's credential chain). */
export function asksForKey(kind: ProviderKind): boolean {
  return PROVIDER_KIND_TABLE[kind].credentials.fields.includes("api_key");
}

/** Whether a kind's tokens cost nothing (a local server). */
export function isLocalKind(kind: string): boolean {
  return providerKindSpec(kind)?.local === true;
}

/** The key variables the daemon looks for when config.toml names no provider, in the order it does. */
export function detectedKeyVars(): string[] {
  return PROVIDER_KINDS.filter((k) => PROVIDER_KIND_TABLE[k].detect).map((k) => PROVIDER_KIND_TABLE[k].credentials.vars[0] ?? "");
}

interface ProviderPreset {
  name: string;
  kind: ProviderKind;
  /** Suggested, editable base URL ("" = none). */
  baseUrl: string;
  /** Base URL the kind always uses ("" = none). */
  fixedBaseUrl: string;
  defaultModel: string;
}

/** The presets offered to clients setting up a provider (docs/providers.md#presets), one per kind that has one. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = PROVIDER_KINDS.flatMap((kind) => {
  const preset = PROVIDER_KIND_TABLE[kind].preset;
  return preset ? [{ kind, ...preset }] : [];
})
  .sort((a, b) => a.rank - b.rank)
  .map(({ kind, baseUrl, fixedBaseUrl, defaultModel }) => ({ name: kind, kind, baseUrl, fixedBaseUrl, defaultModel }));
