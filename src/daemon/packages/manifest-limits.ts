// Size limits of a package manifest (docs/packages.md "Manifests"): a
// manifest's text ends up in replies (ListPackages, SearchHub, ListAgents…),
// and one 60 MB description made every listing too large to send. A manifest
// over a limit is refused at install and skipped (with a note) when read.
import { ConfigError } from "../../config/error.ts";

export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Any `description`. */
export const MAX_DESCRIPTION_BYTES = 4096;
/** Names (table keys, `name`), `repository`, `branch` and each keyword. */
export const MAX_NAME_BYTES = 1024;
/** Any other text: a setup script or inline prompt, an argument, an env value. */
export const MAX_TEXT_BYTES = 64 * 1024;

const NAME_KEYS = new Set(["name", "repository", "branch"]);

/** Throws a ConfigError naming the first field over its limit; `label` names the file. */
export function checkManifestSizes(doc: unknown, label: string): void {
  const problem = oversized(doc, []);
  if (problem) throw new ConfigError(`${label}: ${problem}`);
}

function oversized(value: unknown, path: string[]): string | undefined {
  if (typeof value === "string") {
    const limit = limitFor(path);
    const bytes = Buffer.byteLength(value);
    return bytes > limit ? `${dotted(path)} is ${bytes} bytes, over the ${limit}-byte limit` : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = oversized(item, [...path, String(i)]);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyBytes = Buffer.byteLength(key);
      if (keyBytes > MAX_NAME_BYTES) return `a key of ${dotted(path) || "the manifest"} is ${keyBytes} bytes, over the ${MAX_NAME_BYTES}-byte limit`;
      const problem = oversized(item, [...path, key]);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A field's path for a message: long paths (deep nesting) shortened. */
function dotted(path: readonly string[]): string {
  const text = path.join(".");
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function limitFor(path: readonly string[]): number {
  const key = path.at(-1) ?? "";
  if (key === "description") return MAX_DESCRIPTION_BYTES;
  if (NAME_KEYS.has(key)) return MAX_NAME_BYTES;
  if (path.length === 3 && path[0] === "package" && path[1] === "keywords") return MAX_NAME_BYTES;
  return MAX_TEXT_BYTES;
}
