// The component port-file contract (docs/mcp.md#components): run/<name>.port holding a decimal
// port, written by a running component and removed when it stops; read by the
// daemon (discovery) and by `crabtalk services`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface PortFile {
  name: string;
  port: number;
}

const NAME = /^[A-Za-z0-9._-]+$/;

/** Every run/<name>.port but the daemon's own whose content is a port number. */
export function readPortFiles(runDir: string): PortFile[] {
  let names: string[];
  try {
    names = readdirSync(runDir).sort();
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".port") && n !== "crabtalk.port" && NAME.test(n.slice(0, -".port".length)))
    .flatMap((n) => {
      let text: string;
      try {
        text = readFileSync(join(runDir, n), "utf8").trim();
      } catch {
        return []; // removed between the listing and the read
      }
      const port = Number(text);
      return /^\d+$/.test(text) && port > 0 && port < 65536 ? [{ name: n.slice(0, -".port".length), port }] : [];
    });
}

/** Whether something accepts TCP connections on 127.0.0.1:<port> (within `timeoutMs`). */
export async function portAnswers(port: number, timeoutMs = 2000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const attempt = Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: { open: (s) => void s.end(), data: () => {}, error: () => {} },
  }).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
