// Provider detection when config.toml names none: API keys in the
// environment, else a local Ollama server.
import type { Fetch } from "./sdk-errors.ts";
import type { ProviderSettings } from "../base/provider-settings.ts";

export const DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";
export const DEFAULT_OPENAI_MODEL = "gpt-4o";
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
/** Ollama answers its tag list in a few ms when it runs; do not hold up start-up for long. */
export const OLLAMA_PROBE_TIMEOUT_MS = 300;

export interface DetectOptions {
  fetch?: Fetch;
  /** Ollama's origin (default http://127.0.0.1:11434); tests point it at a fake. */
  ollamaUrl?: string;
  timeoutMs?: number;
}

export interface DetectedProviders {
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
 * OPENAI_API_KEY and/or ANTHROPIC_API_KEY (with optional *_MODEL and
 * *_BASE_URL) give one provider each, OpenAI first; without either, an
 * Ollama server listing at least one model gives an `ollama` provider.
 */
export async function detectProviders(env: Env, options: DetectOptions = {}): Promise<DetectedProviders | undefined> {
  const providers: ProviderSettings[] = [];
  const sources: string[] = [];
  const openaiKey = set(env, "OPENAI_API_KEY");
  if (openaiKey) {
    const baseUrl = set(env, "OPENAI_BASE_URL");
    providers.push({
      name: "openai",
      kind: "openai",
      apiKey: openaiKey,
      ...(baseUrl ? { baseUrl } : {}),
      models: [set(env, "OPENAI_MODEL") ?? DEFAULT_OPENAI_MODEL],
    });
    sources.push("OPENAI_API_KEY");
  }
  const anthropicKey = set(env, "ANTHROPIC_API_KEY");
  if (anthropicKey) {
    const baseUrl = set(env, "ANTHROPIC_BASE_URL");
    providers.push({
      name: "anthropic",
      kind: "anthropic",
      apiKey: anthropicKey,
      ...(baseUrl ? { baseUrl } : {}),
      models: [set(env, "ANTHROPIC_MODEL") ?? DEFAULT_ANTHROPIC_MODEL],
    });
    sources.push("ANTHROPIC_API_KEY");
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
