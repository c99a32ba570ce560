// UninstallPackage (docs/packages.md): stop its services, remove its commands
// (best effort), its manifest and its cached repository, then reload. If the
// reload fails the manifest is put back, so the daemon stays as it was.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { notFound } from "../../protocol/errors.ts";
import { writeFileAtomicSync } from "../../base/atomic-file.ts";
import type { DaemonState } from "../state.ts";
import { npmCommandDir, type Progress } from "./commands.ts";
import { installedManifestPath, repoSlug, type PackageId } from "./id.ts";
import { removeManifest } from "./install.ts";
import { listInstalled } from "./installed.ts";
import { packageManifestSchema, readPackageManifest, type PackageManifest } from "./manifest.ts";
import { scriptEnv } from "./script-env.ts";

/** Throws 404 before anything is streamed when the package is not installed. */
export function checkInstalled(state: DaemonState, pkg: PackageId): string {
  const target = installedManifestPath(state.paths.packages, pkg);
  if (!existsSync(target)) throw notFound(`package '${pkg.id}' is not installed`);
  return target;
}

export async function* uninstallPackage(state: DaemonState, pkg: PackageId, stopService: (name: string) => Promise<boolean>): AsyncGenerator<Progress> {
  const target = checkInstalled(state, pkg);
  // A broken manifest (too large, invalid) is removed too: there is nothing of it to undo.
  let manifest: PackageManifest;
  let text: string | undefined;
  try {
    manifest = readPackageManifest(target, `packages/${pkg.id}.toml`);
    text = readFileSync(target, "utf8");
  } catch (err) {
    yield { kind: "warning", text: `${(err as Error).message}: removing the manifest only` };
    manifest = packageManifestSchema.parse({});
  }
  removeManifest(target);
  try {
    yield { kind: "step", text: "reloading daemon…" };
    await state.reload();
  } catch (err) {
    if (text !== undefined) writeFileAtomicSync(target, text);
    throw err;
  }
  yield { kind: "step", text: `removed packages/${pkg.id}.toml` };
  for (const [name, cmd] of Object.entries(manifest.commands)) {
    if (await stopService(name).catch(() => false)) yield { kind: "step", text: `stopped service ${name}` };
    if (cmd.npm) rmSync(npmCommandDir(state.paths.home, name), { recursive: true, force: true });
    if (cmd.crate && Bun.which("cargo")) {
      yield { kind: "step", text: `cargo uninstall ${cmd.crate}…` };
      await Bun.spawn(["cargo", "uninstall", cmd.crate], { stdin: "ignore", stdout: "ignore", stderr: "ignore", env: scriptEnv(state.env) }).exited;
    }
  }
  const url = manifest.package.repository;
  // Several packages may share one repository (the hub's crabtalk/* do): keep it while one still uses it.
  const shared = listInstalled(state.paths.packages, state.paths.cacheRepos).some((p) => p.manifest.package.repository === url);
  if (url && !shared) {
    const dir = join(state.paths.cacheRepos, repoSlug(url));
    if (existsSync(dir)) {
      rmSync(dir, { recursive: true, force: true });
      yield { kind: "step", text: `removed cached repository ${dir}` };
    }
  }
}
