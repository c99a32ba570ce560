// `crabtalk mcp list` through the real CLI and daemon: a server that failed
// says why, a disabled one says "disabled", a connected one its tools.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { EVERYTHING_ENTRY } from "../runtime/mcp/support.ts";

let daemon: TestDaemon;
const q = JSON.stringify;
const list = () => runCli(["mcp", "list"], { home: daemon.home });

beforeAll(async () => {
  const home = tempHome();
  mkdirSync(join(home, "local"), { recursive: true });
  writeFileSync(
    join(home, "local/CrabTalk.toml"),
    [
      `[mcps.good]\ncommand = ${q(process.execPath)}\nargs = [${q(EVERYTHING_ENTRY)}, "stdio"]`,
      `[mcps.missing]\ncommand = "/nonexistent/crabtalk-mcp-server"`,
      `[mcps.off]\ncommand = ${q(process.execPath)}\nargs = [${q(EVERYTHING_ENTRY)}, "stdio"]`,
    ].join("\n\n") + "\n",
  );
  daemon = await startDaemon({ home, config: '[disabled]\nmcps = ["off"]\n' });
});
afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

test("a failed server says why, a disabled one says disabled", async () => {
  let out = "";
  const deadline = Date.now() + 20_000;
  for (;;) {
    out = (await list()).stdout;
    if (!out.includes("connecting")) break;
    if (Date.now() > deadline) throw new Error(`MCP servers still connecting after 20 s:\n${out}`);
    await Bun.sleep(100);
  }
  expect(out).toMatch(/^good\s+connected\s+[1-9]\d*\s+local\s/m);
  expect(out).toMatch(/^missing\s+failed\s+0\s+local\s+\/nonexistent\/crabtalk-mcp-server$/m);
  expect(out).toMatch(/^off\s+disabled\s+0\s+local\s/m);
  const reasons = out.slice(out.indexOf("not connected:"));
  expect(reasons).toMatch(/^ {2}missing: .*(ENOENT|no such file).*crabtalk-mcp-server/m);
  expect(reasons).not.toContain("good:");
  expect(reasons).not.toContain("off:");
}, 30_000);
