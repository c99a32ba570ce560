// The "no model" message, shared by runs (src/daemon/build-runtime.ts)
// and `crabtalk doctor`, which both read the config.
import { detectedKeyVars } from "../base/provider-kinds.ts";

/**
 * Why a run has no model, and the commands that fix it: named for the state
 * the user is in (no provider at all, or providers but no active model).
 */
export function noModelHint(configPath: string, models: readonly string[] = []): string {
  if (models.length > 0) {
    return `no active model: run \`crabtalk models use MODEL\` with one of ${models.join(", ")}, or set model in [system.crab] of ${configPath}`;
  }
  return (
    `no model configured in ${configPath}: run \`crabtalk setup\`, or ` +
    "`crabtalk providers add NAME --kind openai --api-key-env OPENAI_API_KEY --model gpt-4o` " +
    "(its first model becomes active; `crabtalk models use MODEL` picks another), " +
    "or write a [provider.<name>] table and [system.crab] model yourself; " +
    `or export ${detectedKeyVars().join(" or ")}, or run Ollama on 127.0.0.1:11434`
  );
}
