// The hub index (docs/packages.md): a git repository of `<scope>/<name>.toml`
// manifests, cloned shallowly into <home>/hub and re-synced on every use.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../config/expand.ts";
import { syncClone } from "./git.ts";
import { readPackageManifest, type PackageManifest } from "./manifest.ts";
import { parsePackageId, type PackageId } from "./id.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export const DEFAULT_HUB_URL = "https://github.com/crabtalk/hub";

/** `CRABTALK_HUB_URL`, else `[hub] url` of config.toml, else the public hub. */
export function hubUrl(configured: string | undefined, env: Env): string {
  return env.CRABTALK_HUB_URL || configured || DEFAULT_HUB_URL;
}

/** Brings <home>/hub up to date with `url` (on `branch`, "" = default); returns the directory. */
export async function syncHub(hubDir: string, url: string, branch = ""): Promise<string> {
  await syncClone(url, hubDir, branch);
  return hubDir;
}

export interface HubEntry extends PackageId {
  manifest: PackageManifest;
}

/** Every manifest of a hub directory that parses, sorted by id; the others are reported to `log`. */
export function hubEntries(hubDir: string, log: RuntimeLog): HubEntry[] {
  const entries: HubEntry[] = [];
  for (const scope of listDir(hubDir)) {
    if (scope.startsWith(".") || !isDir(join(hubDir, scope))) continue;
    for (const file of listDir(join(hubDir, scope))) {
      if (!file.endsWith(".toml")) continue;
      const id = `${scope}/${file.slice(0, -".toml".length)}`;
      try {
        entries.push({ ...parsePackageId(id), manifest: readPackageManifest(join(hubDir, scope, file), `${id}.toml`) });
      } catch (err) {
        log.warn(`hub manifest ${id}: ${(err as Error).message}`);
      }
    }
  }
  return entries.sort((a, b) => a.id.localeCompare(b.id));
}

/** Case-insensitive match on id, description or a keyword; an empty query matches all (docs/packages.md). */
export function matchesQuery(entry: HubEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "") return true;
  const { description, keywords } = entry.manifest.package;
  return [entry.id, description, ...keywords].some((s) => s.toLowerCase().includes(q));
}

/** A directory's entries, sorted; none when it is missing or unreadable. */
export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
