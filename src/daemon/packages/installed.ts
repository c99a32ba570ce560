// Installed packages: packages/<scope>/<name>.toml, in resolution order
// (scope, then file name; docs/home.md#search-order).
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { needsRepository, readPackageManifest, type PackageManifest } from "./manifest.ts";
import { parsePackageId, repoSlug, type PackageId } from "./id.ts";
import { listDir } from "./hub.ts";
import { SILENT_LOG, type RuntimeLog } from "../../base/runtime-log.ts";

export interface InstalledPackage extends PackageId {
  manifest: PackageManifest;
  /** The cached repository (`.cache/repos/<slug>`), when the package has one on disk. */
  repo?: string;
}

/** A manifest under packages/ that cannot be used (too large, not TOML, invalid): listed, never loaded. */
export interface BrokenPackage {
  id: string;
  error: string;
}

/** The packages that load; each broken one is reported to `log` and skipped. */
export function listInstalled(packagesDir: string, cacheRepos: string, log: RuntimeLog = SILENT_LOG): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  for (const entry of installedEntries(packagesDir, cacheRepos)) {
    if ("error" in entry) log.warn(`package ${entry.id}: ${entry.error}, skipping`);
    else out.push(entry);
  }
  return out;
}

/** Every manifest under packages/, in resolution order, the broken ones included. */
export function installedEntries(packagesDir: string, cacheRepos: string): (InstalledPackage | BrokenPackage)[] {
  const out: (InstalledPackage | BrokenPackage)[] = [];
  for (const scope of listDir(packagesDir)) {
    const scopeDir = join(packagesDir, scope);
    // A symlinked scope directory could point anywhere: never read through it.
    if (!isRealDir(scopeDir)) continue;
    for (const file of listDir(scopeDir)) {
      if (!file.endsWith(".toml")) continue;
      const id = `${scope}/${file.slice(0, -".toml".length)}`;
      try {
        const pkg = parsePackageId(id);
        const manifest = readPackageManifest(join(scopeDir, file), `packages/${id}.toml`);
        const repo = manifest.package.repository ? join(cacheRepos, repoSlug(manifest.package.repository)) : undefined;
        out.push({ ...pkg, manifest, repo: repo && needsRepository(manifest) && existsSync(repo) ? repo : undefined });
      } catch (err) {
        out.push({ id, error: (err as Error).message });
      }
    }
  }
  return out;
}

function isRealDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return false;
  }
}
