// Model names an agent refers to (`model`, `fallback`) must be served by a
// provider. One check for every way in — SetConfig (config set), CreateAgent,
// UpdateAgent — so `fallback = ["nosuch"]` is refused as `model = "nosuch"` is.
import { didYouMean } from "./schema-keys.ts";

export interface ModelRefs {
  model?: unknown;
  fallback?: unknown;
}

/** Why one of the agent's models cannot be used, prefixed by `at` (`system.crab`), or undefined. */
export function unservedModel(agent: ModelRefs, served: readonly string[], at?: string): string | undefined {
  const named: [string, unknown][] = [
    ["model", agent.model],
    ...(Array.isArray(agent.fallback) ? agent.fallback.map((m): [string, unknown] => ["fallback", m]) : []),
  ];
  for (const [key, model] of named) {
    if (typeof model !== "string" || model === "" || served.includes(model)) continue;
    const where = at ? `${at}.${key}: ` : key === "fallback" ? "fallback: " : "";
    return `${where}model '${model}' is not served by any provider${didYouMean(model, served)}`;
  }
  return undefined;
}
