// A package's agents and MCP servers whose names are not plain words
// (docs/packages.md#what-a-package-adds-and-who-wins): each is skipped, and the install
// says so in a HubWarning, instead of being loaded under a path-like name or
// dropped without a word. The rest of the package installs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { gitRepo, until } from "../support/hub.ts";

const repo = gitRepo({
  "agents/fine.md": "A fine agent.\n",
  "x.md": "reached through ../x\n",
  "agents/with space.md": "a prompt file alone, named with a space\n",
});
const hub = gitRepo({
  "t/names.toml": `[package]
description = "Names that are paths"
repository = ${JSON.stringify(repo)}

[agents."../x"]
description = "climbs out of agents/"

[agents.fine]

[agents."a/b"]

[mcps."../y"]
url = "http://127.0.0.1:9/mcp"

[mcps.ctl]
name = "bell\\u0007"
url = "http://127.0.0.1:9/mcp"

[mcps.plain-mcp]
url = "http://127.0.0.1:9/mcp"
`,
});

let daemon: TestDaemon;
let client: Client;
beforeAll(async () => {
  daemon = await startDaemon({ env: { CRABTALK_HUB_URL: hub } });
  client = await daemon.client();
});
afterAll(async () => {
  await client?.close();
  await daemon?.stop();
  cleanup(daemon.home);
  cleanup(hub);
  cleanup(repo);
});

const rule = "names are 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit";

test("install warns about each unusable agent and MCP server name and installs the rest", async () => {
  const warnings: string[] = [];
  let done = false;
  for await (const e of client.installPackage({ package: "t/names" })) {
    if (e.event.case === "warning") warnings.push(e.event.value.message);
    if (e.event.case === "done") done = e.event.value.error === "";
  }
  expect(done).toBe(true);
  expect(warnings).toEqual(
    expect.arrayContaining([
      `MCP server "../y" from t/names skipped: a package's MCP server ${rule}`,
      `MCP server "bell\\u0007" from t/names skipped: a package's MCP server ${rule}`,
      `agent "../x" from t/names skipped: a package's agent ${rule}`,
      `agent "a/b" from t/names skipped: a package's agent ${rule}`,
      `agent "with space" from t/names skipped: a package's agent ${rule}`,
    ]),
  );
  // Each once, and no raw control character reaches the client.
  expect(warnings.filter((w) => w.includes('"../x"'))).toHaveLength(1);
  expect(warnings.join("\n")).not.toContain("\u0007");

  const agents = (await client.listAgents()).map((a) => a.name);
  expect(agents).toContain("fine");
  expect(agents).not.toContain("../x");
  expect(agents).not.toContain("a/b");
  expect(agents).not.toContain("with space");
  const mcps = (await client.listMcps()).map((m) => m.name);
  expect(mcps).toContain("plain-mcp");
  expect(mcps).not.toContain("../y");
  expect(mcps.some((m) => m.startsWith("bell"))).toBe(false);
});

test("the daemon log says the same at each reload", async () => {
  const log = join(daemon.home, "logs/daemon.log");
  const count = (t: string, what: string) => t.split(what).length - 1;
  const agent = `agent "../x" from t/names skipped`;
  const mcp = `MCP server "../y" from t/names skipped`;
  const before = await until(
    async () => readFileSync(log, "utf8"),
    (t) => count(t, agent) > 0 && count(t, mcp) > 0,
  );
  await client.reload();
  const after = await until(
    async () => readFileSync(log, "utf8"),
    (t) => count(t, agent) > count(before, agent) && count(t, mcp) > count(before, mcp),
  );
  expect(count(after, agent)).toBeGreaterThan(count(before, agent));
  expect(count(after, mcp)).toBeGreaterThan(count(before, mcp));
});
