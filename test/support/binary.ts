// The compiled executable (`bun run build` → dist/crabtalk), built once per
// test run and shared by the tests that need the real binary.
import { REPO } from "./daemon.ts";
import { join } from "node:path";

let built: Promise<string> | undefined;

export function compiledBinary(): Promise<string> {
  built ??= (async () => {
    const build = Bun.spawn([process.execPath, "run", "build"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    const [code, err] = await Promise.all([build.exited, new Response(build.stderr).text()]);
    if (code !== 0) throw new Error(`bun run build failed: ${err}`);
    return join(REPO, "dist/crabtalk");
  })();
  return built;
}
