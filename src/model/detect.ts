// Provider detection when config.toml names none: API keys in the
// environment, else a local Ollama server.
import type { Fetch } from "./failures.ts";
import type { ProviderSettings } from "../base/provider-settings.ts";
import { PROVIDER_KINDS, PROVIDER_KIND_TABLE } from "../base/provider-kinds.ts";

const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";
/** Ollama answers its tag list in a few ms when it runs; do not hold up start-up for long. */
const OLLAMA_PROBE_TIMEOUT_MS = 300;

interface DetectOptions {
  fetch?: Fetch;
  /** Ollama's origin (default http://127.0.0.1:11434); tests point it at a fake. */
  ollamaUrl?: string;
  timeoutMs?: number;
}

interface DetectedProviders {
  providers: ProviderSettings[];
  /** The model to use when none is configured. */
  activeModel?: string;
  /** What was detected, for a log line (never a secret). */
  source: string;
}

type Env = Record<string, string | undefined>;

function set(env: Env, key: string): string | undefined {
  const v = env[key]?.trim();
  return v ? v : undefined;
}

/**
 * Each kind with a `detect` entry in provider-kinds.ts (OPENAI_API_KEY, then
 * ANTHROPIC_API_KEY, with optional *_MODEL and *_BASE_URL) gives one provider,
 * named after its kind; without any, an Ollama server listing at least one
 * model gives an `ollama` provider.
 */
export async function detectProviders(env: Env, options: DetectOptions = {}): Promise<DetectedProviders | undefined> {
  const providers: ProviderSettings[] = [];
  const sources: string[] = [];
  for (const kind of PROVIDER_KINDS) {
    const { detect, credentials } = PROVIDER_KIND_TABLE[kind];
    const keyVar = credentials.vars[0];
    const apiKey = detect && keyVar !== undefined ? set(env, keyVar) : undefined;
    if (!detect || keyVar === undefined || !apiKey) continue;
    const baseUrl = set(env, detect.baseUrlVar);
    providers.push({
      name: kind,
      kind,
      apiKey,
      ...(baseUrl ? { baseUrl } : {}),
      models: [set(env, detect.modelVar) ?? detect.defaultModel],
    });
    sources.push(keyVar);
  }
  if (providers.length > 0) {
    return { providers, activeModel: providers[0]?.models[0], source: `environment (${sources.join(", ")})` };
  }
  const ollamaUrl = (options.ollamaUrl ?? DEFAULT_OLLAMA_URL).replace(/\/+$/, "");
  const models = await ollamaModels(ollamaUrl, options.fetch ?? fetch, options.timeoutMs ?? OLLAMA_PROBE_TIMEOUT_MS);
  if (models.length === 0) return undefined;
  return {
    providers: [{ name: "ollama", kind: "ollama", baseUrl: `${ollamaUrl}/v1`, models }],
    activeModel: models[0],
    source: `Ollama at ${ollamaUrl}`,
  };
}

/** Model names from Ollama's `GET /api/tags`; none when it does not answer in time. */
async function ollamaModels(origin: string, fetchImpl: Fetch, timeoutMs: number): Promise<string[]> {
  try {
    const res = await fetchImpl(`${origin}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return [];
    const body: unknown = await res.json();
    const list = typeof body === "object" && body !== null ? (body as { models?: unknown }).models : undefined;
    if (!Array.isArray(list)) return [];
    const names: string[] = [];
    for (const m of list) {
      const name = typeof m === "object" && m !== null ? ((m as { name?: unknown; model?: unknown }).name ?? (m as { model?: unknown }).model) : undefined;
      if (typeof name === "string" && name !== "" && !names.includes(name)) names.push(name);
    }
    return names;
  } catch {
    return [];
  }
}
