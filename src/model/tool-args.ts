// A model's tool-call argument string as the object the structured APIs
// (Anthropic, Gemini, Bedrock) want back in the history.

/** The parsed arguments; invalid JSON or a non-object goes back as no arguments. */
export function parseToolArguments(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  return {};
}

/**
 * Reasoning signatures are provider-specific; Gemini's carry this prefix so
 * that neither provider is sent the other's (after a fallback or a switch).
 */
export const GEMINI_SIGNATURE_PREFIX = "gemini:";
