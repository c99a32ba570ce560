// Package ids `scope/name` (docs/packages.md) and where an installed one lives.
// Both parts are plain names, so no id can reach outside packages/.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { badRequest } from "../../protocol/errors.ts";

const PART = /^[A-Za-z0-9._-]{1,100}$/;

export interface PackageId {
  scope: string;
  name: string;
  /** `scope/name`. */
  id: string;
}

/** Parses `scope/name`; anything else (`..`, extra slashes, absolute paths) is a 400. */
export function parsePackageId(raw: string): PackageId {
  const parts = raw.split("/");
  const ok = parts.length === 2 && parts.every((p) => PART.test(p) && p !== "." && p !== "..");
  if (!ok) throw badRequest(`invalid package '${raw}': use scope/name, each part of letters, digits, '.', '_' or '-'`);
  return { scope: parts[0], name: parts[1], id: raw };
}

/** `packages/<scope>/<name>.toml`; a symlinked scope directory is refused (it could point anywhere). */
export function installedManifestPath(packagesDir: string, pkg: PackageId): string {
  const scopeDir = join(packagesDir, pkg.scope);
  let isLink = false;
  try {
    isLink = lstatSync(scopeDir).isSymbolicLink();
  } catch {
    // missing: created on install
  }
  if (isLink) throw badRequest(`packages/${pkg.scope} is a symbolic link: refusing to use it`);
  const file = join(scopeDir, `${pkg.name}.toml`);
  try {
    if (lstatSync(file).isSymbolicLink()) throw badRequest(`packages/${pkg.id}.toml is a symbolic link: refusing to use it`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  return file;
}

/** `.cache/repos/<slug>`: the repository URL with every character outside [A-Za-z0-9-] turned into '-'. */
export function repoSlug(url: string): string {
  return url.replace(/[^A-Za-z0-9-]/g, "-").replace(/^-+|-+$/g, "");
}
