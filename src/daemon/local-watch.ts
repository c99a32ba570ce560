// Skills and agent prompt files edited on disk take effect without `reload`:
// local/skills/ and local/agents/ are watched, and a burst of changes is
// applied together a moment after the last one, keeping MCP connections.
import { watch, type FSWatcher } from "node:fs";
import { relative } from "node:path";
import type { DaemonState } from "./state.ts";

/** Quiet time after the last change before reloading: editors write in bursts. */
export const WATCH_DEBOUNCE_MS = 200;

export function watchLocalFiles(state: DaemonState, dirs: readonly string[]): { close(): void } {
  const changed = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloading = Promise.resolve();

  const apply = () => {
    const names = [...changed].sort();
    changed.clear();
    reloading = reloading.then(async () => {
      try {
        await state.reload({ keepMcp: true });
        state.log.info("local files changed; reloaded", { changed: names.join(", "), agents: state.host.runtime.agents.size });
      } catch (err) {
        state.log.warn("local files changed but reload failed; the previous setup stays", {
          changed: names.join(", "),
          error: (err as Error).message,
        });
      }
    });
  };

  const watchers: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      const w = watch(dir, { recursive: true }, (_event, file) => {
        changed.add(relative(state.paths.localDir, `${dir}/${file ?? ""}`) || dir);
        clearTimeout(timer);
        timer = setTimeout(apply, WATCH_DEBOUNCE_MS);
      });
      w.on("error", (err) => state.log.warn("watching stopped", { dir, error: err.message }));
      watchers.push(w);
    } catch (err) {
      state.log.warn("cannot watch; edits there need crabtalk reload", { dir, error: (err as Error).message });
    }
  }
  return {
    close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
