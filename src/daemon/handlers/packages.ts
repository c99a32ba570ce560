// InstallPackage, UninstallPackage, ListPackages, SearchHub
// (docs/protocol.md#packages-hub-and-skills, docs/protocol.md#hub-streams; docs/packages.md). Bad ids are refused with 400 before anything
// streams; hub and package operations run one at a time.
import { isAbsolute } from "node:path";
import type { Reply } from "../../protocol/codec.ts";
import { badRequest } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import { hubEntries, hubUrl, matchesQuery, syncHub } from "../packages/hub.ts";
import { installedManifestPath, parsePackageId } from "../packages/id.ts";
import { installPackage, type Progress } from "../packages/install.ts";
import { installedEntries, listInstalled } from "../packages/installed.ts";
import { checkInstalled, uninstallPackage } from "../packages/uninstall.ts";
import type { DaemonState } from "../state.ts";

function hubEvent(p: Progress | { kind: "done"; text: string }): Reply {
  const event =
    p.kind === "step"
      ? { case: "step" as const, value: { message: p.text } }
      : p.kind === "warning"
        ? { case: "warning" as const, value: { message: p.text } }
        : p.kind === "setup_output"
          ? { case: "setupOutput" as const, value: { content: p.text } }
          : { case: "done" as const, value: { error: p.text } };
  return { case: "hubEvent", value: { event } };
}

/**
 * Runs one hub operation to its end under the packages lock, whether or not
 * the client keeps reading: a client that goes away mid-install must not
 * leave it half done. The reader gets the frames, then the error if any.
 */
function locked(state: DaemonState, progress: () => AsyncGenerator<Progress>): AsyncGenerator<Reply> {
  const queue: Reply[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  const push = (r: Reply) => {
    queue.push(r);
    wake?.();
  };
  void (async () => {
    const release = await state.packagesLock.lock();
    try {
      for await (const p of progress()) push(hubEvent(p));
      push(hubEvent({ kind: "done", text: "" }));
    } catch (err) {
      failure = err;
      state.log.warn("hub operation failed", { error: (err as Error).message });
    } finally {
      release();
      finished = true;
      wake?.();
    }
  })();
  return (async function* () {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (finished) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  })();
}

/** A manifest error without its leading `packages/<id>.toml: ` (the listing shows the id), kept short. */
function withoutLabel(error: string, id: string): string {
  const label = `packages/${id}.toml: `;
  const reason = error.startsWith(label) ? error.slice(label.length) : error;
  return reason.length > 1024 ? `${reason.slice(0, 1024)}…` : reason;
}

export function packageHandlers(state: DaemonState): Handlers {
  return {
    installPackage: ({ package: id, branch, path, force }) => {
      const pkg = parsePackageId(id);
      installedManifestPath(state.paths.packages, pkg); // refuses a symlinked scope before streaming
      if (path && !isAbsolute(path)) throw badRequest(`path must be an absolute directory, not '${path}'`);
      return locked(state, () => installPackage(state, { pkg, branch, path, force }));
    },

    uninstallPackage: ({ package: id }) => {
      const pkg = parsePackageId(id);
      checkInstalled(state, pkg);
      return locked(state, () => uninstallPackage(state, pkg, (name) => state.services.stopIfRunning(name)));
    },

    // A broken manifest (too large, invalid) is listed with why it is not loaded, so it can be found and removed.
    listPackages: () => ({
      case: "packageList",
      value: {
        packages: installedEntries(state.paths.packages, state.paths.cacheRepos).map((p) =>
          "error" in p
            ? { name: p.id, description: `not loaded: ${withoutLabel(p.error, p.id)}` }
            : { name: p.id, description: p.manifest.package.description },
        ),
      },
    }),

    searchHub: async ({ query }) => {
      const release = await state.packagesLock.lock();
      try {
        const dir = await syncHub(state.paths.hub, hubUrl(state.config.config.hub.url, state.env));
        const installed = new Set(listInstalled(state.paths.packages, state.paths.cacheRepos).map((p) => p.id));
        const packages = hubEntries(dir, state.log)
          .filter((e) => matchesQuery(e, query))
          .map((e) => ({
            name: e.id,
            description: e.manifest.package.description,
            skillCount: 0,
            mcpCount: Object.keys(e.manifest.mcps).length,
            installed: installed.has(e.id),
            repository: e.manifest.package.repository,
          }));
        return { case: "hubPackageList", value: { packages } };
      } finally {
        release();
      }
    },
  };
}
