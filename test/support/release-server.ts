// A local stand-in for a GitHub release: serves files from a directory under
// the paths install.sh asks for (`/latest/download/X`, `/download/vN/X`, or
// any prefix when CRABTALK_DOWNLOAD_URL points at it) and records each request.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ReleaseServer {
  url: string;
  /** Request paths, in order. */
  requests: string[];
  /** Publishes `files` (name → content) as release `tag` ("latest" for latest/download). */
  publish(tag: string, files: Record<string, string | Uint8Array>, sums?: Record<string, string>): void;
  stop(): void;
}

export function sha256(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

/** A stand-in binary: a script that answers `--version` like crabtalk and otherwise sleeps. */
export function fakeBinary(version: string): string {
  return `#!/bin/sh\nif [ "$1" = --version ]; then echo "crabtalk ${version} (fake, test)"; else sleep 30; fi\n`;
}

export function releaseServer(root: string): ReleaseServer {
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      if (path.includes("..")) return new Response("bad path", { status: 400 });
      const file = Bun.file(join(root, path));
      return (await file.exists()) ? new Response(file) : new Response("Not Found", { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    publish(tag, files, sums) {
      const dir = join(root, tag === "latest" ? "latest/download" : `download/${tag}`);
      mkdirSync(dir, { recursive: true });
      const lines: string[] = [];
      for (const [name, content] of Object.entries(files)) {
        writeFileSync(join(dir, name), content);
        lines.push(`${sums?.[name] ?? sha256(content)}  ${name}`);
      }
      writeFileSync(join(dir, "SHA256SUMS"), lines.join("\n") + "\n");
    },
    stop: () => server.stop(true),
  };
}
