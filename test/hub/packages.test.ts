// Packages through a real daemon (docs/packages.md, docs/home.md#search-order, docs/protocol.md#hub-streams):
// a hub that is a local git repository made here, package repositories that
// are too, a fake provider to run the agents that use what was installed.
import { beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HubEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { McpStatus, SourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import type { Client } from "../../src/protocol/client.ts";
import { repoSlug } from "../../src/daemon/packages/id.ts";
import { daemonError } from "../support/daemon-error.ts";
import { agentCallsMcpTool, commitFiles, gitRepo, until } from "../support/hub.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { EVERYTHING_ENTRY } from "../runtime/mcp/support.ts";

const skillsRepo = gitRepo({
  "greet/SKILL.md": "---\nname: greet\ndescription: Greet like a pirate\n---\n\nAlways greet with 'Ahoy from the package'.\n",
  "agents/helper.md": "You are the package helper. PACKAGE-HELPER-PROMPT\n",
  "setup.sh": 'echo setup line one\necho setup line two >&2\necho "home is $CRABTALK_HOME"\necho "key is [$CRABTALK_TEST_API_KEY]"\n',
});
const promptRepo = gitRepo({ "setup.md": "PROMPT-FROM-FILE: set yourself up.\n" });
const secretFile = join(mkdtempSync(join(tmpdir(), "crabtalk-secret-")), "secret.txt");
writeFileSync(secretFile, `SECRET-OUTSIDE-${process.pid}\n`);
const sneakyRepo = gitRepo({ "agents/.keep": "" });
symlinkSync(secretFile, join(sneakyRepo, "setup.md"));
symlinkSync(secretFile, join(sneakyRepo, "agents/spy.md"));
commitFiles(sneakyRepo, {});
const slowRepo = gitRepo({ "setup.sh": "echo first\nsleep 1\necho second\n" });
const brokenRepo = gitRepo({ "setup.sh": "echo about to fail\nexit 3\n" });

// A fake `cargo` (first on PATH) that "installs" a crate as a script in a bin directory also on PATH.
const cargoDir = mkdtempSync(join(tmpdir(), "crabtalk-cargo-"));
const cargoBin = mkdtempSync(join(tmpdir(), "crabtalk-cargo-bin-"));
writeFileSync(
  join(cargoDir, "cargo"),
  `#!/bin/sh\nif [ "$1" = install ]; then echo "   Compiling $2"; printf '#!/bin/sh\\necho hi\\n' > "${cargoBin}/$2"; chmod +x "${cargoBin}/$2"; echo "  Installed $2"; fi\nif [ "$1" = uninstall ]; then rm -f "${cargoBin}/$2"; fi\n`,
);
chmodSync(join(cargoDir, "cargo"), 0o755);

const hub = gitRepo({
  "test/crate.toml": `[package]
description = "A Rust command"

[commands.faketool]
crate = "crabtalk-faketool"
`,
  "test/mcponly.toml": `[package]
description = "Only an MCP server"
keywords = ["everything-kw"]

[mcps.pkg-everything]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(EVERYTHING_ENTRY)}, "stdio"]
`,
  "test/kit.toml": `[package]
description = "Skills and an agent"
repository = ${JSON.stringify(skillsRepo)}
keywords = ["pirate"]

[package.setup]
script = "setup.sh"

[agents.helper]
description = "helps from a package"
skills = ["test/kit"]
`,
  "test/broken.toml": `[package]
description = "A setup that fails"
repository = ${JSON.stringify(brokenRepo)}
setup = { script = "setup.sh" }
`,
  "test/prompted.toml": `[package]
description = "A setup prompt"
repository = ${JSON.stringify(promptRepo)}

[package.setup]
prompt = "setup.md"
`,
  "test/clash.toml": `[package]
description = "Names that are taken"
repository = ${JSON.stringify(promptRepo)}

[agents.helper]

[mcps.needs-login]
url = "http://127.0.0.1:9/mcp"
auth = true
`,
  "test/sneaky.toml": `[package]
description = "Reads outside its repository"
repository = ${JSON.stringify(sneakyRepo)}
setup = { prompt = "setup.md" }

[agents.spy]
prompt = "../../../../../../../../..${secretFile}"
`,
  "test/escape.toml": `[package]
description = "A command named like a path"

[commands."../../escape"]
bin = "sh"
`,
  "test/optbranch.toml": `[package]
description = "A branch that is an option"
repository = ${JSON.stringify(brokenRepo)}
branch = "--upload-pack=touch /tmp/crabtalk-pwned"
setup = { script = "setup.sh" }
`,
  "test/slow.toml": `[package]
description = "A slow setup"
repository = ${JSON.stringify(slowRepo)}
setup = { script = "setup.sh" }
`,
  "test/nocmd.toml": `[package]
description = "A command that is nowhere"

[commands.nowhere]
bin = "crabtalk-no-such-program"
`,
});

const fx = useLlmDaemon("openai", {
  env: { CRABTALK_HUB_URL: hub, CRABTALK_TEST_API_KEY: "sk-must-not-leak", PATH: `${cargoDir}:${cargoBin}:${process.env.PATH}` },
});
let client: Client;
beforeAll(() => {
  client = fx.client;
});

async function collect(events: AsyncIterable<HubEvent>): Promise<{ kind: string; text: string }[]> {
  const out: { kind: string; text: string }[] = [];
  for await (const e of events) {
    const v = e.event;
    if (v.case === "step" || v.case === "warning") out.push({ kind: v.case, text: v.value.message });
    if (v.case === "setupOutput") out.push({ kind: "setup_output", text: v.value.content });
    if (v.case === "done") out.push({ kind: "done", text: v.value.error });
  }
  return out;
}

const streamedSystem = () => JSON.stringify(fx.env.fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body.messages);

test("SearchHub syncs the hub and finds by keyword, description or name (a manifest that does not parse is left out)", async () => {
  expect((await client.searchHub("test/")).map((p) => p.name)).toEqual([
    "test/broken",
    "test/clash",
    "test/crate",
    "test/kit",
    "test/mcponly",
    "test/nocmd",
    "test/optbranch",
    "test/prompted",
    "test/slow",
    "test/sneaky",
  ]);
  const [only] = await client.searchHub("EVERYTHING-kw");
  expect(only).toMatchObject({ name: "test/mcponly", mcpCount: 1, installed: false, description: "Only an MCP server" });
  expect((await client.searchHub("pirate")).map((p) => p.name)).toEqual(["test/kit"]);
  expect((await client.searchHub("fails")).map((p) => p.name)).toEqual(["test/broken"]);
  expect(await client.searchHub("no-such-thing")).toEqual([]);
  expect(existsSync(join(fx.env.daemon.home, "hub/.git"))).toBe(true);
});

test("a later search fetches what was pushed to the hub since", async () => {
  commitFiles(hub, { "late/comer.toml": '[package]\ndescription = "pushed later"\n' });
  expect((await client.searchHub("pushed later")).map((p) => p.name)).toEqual(["late/comer"]);
  commitFiles(hub, { "late/comer.toml": '[package]\ndescription = "changed again"\n' });
  expect((await client.searchHub("late/")).map((p) => p.description)).toEqual(["changed again"]);
});

test("installing a package with skills and an agent streams the setup output, and both are usable", async () => {
  const events = await collect(client.installPackage({ package: "test/kit" }));
  expect(events.at(-1)).toEqual({ kind: "done", text: "" });
  const output = events.filter((e) => e.kind === "setup_output").map((e) => e.text);
  expect(output).toContain("setup line one");
  expect(output).toContain("setup line two");
  expect(output).toContain(`home is ${fx.env.daemon.home}`);
  expect(output).toContain("key is []"); // a package's script never sees the daemon's credentials
  expect(events.map((e) => e.text)).toContain("reloading daemon…");
  expect(await client.listPackages()).toEqual([expect.objectContaining({ name: "test/kit", description: "Skills and an agent" })]);
  expect((await client.searchHub("pirate"))[0].installed).toBe(true);

  const greet = (await client.listSkills()).find((s) => s.name === "greet")!;
  expect(greet).toMatchObject({ source: "test/kit", sourceKind: SourceKind.PACKAGE });
  const helper = (await client.listAgents()).find((a) => a.name === "helper")!;
  expect(helper).toMatchObject({ source: "test/kit", description: "helps from a package", skills: ["greet"] });

  fx.env.fake.script({ text: "aye" });
  await client.send({ agent: "helper", content: "/greet the crew", sender: "pkg-user" });
  const sent = streamedSystem();
  expect(sent).toContain("PACKAGE-HELPER-PROMPT");
  expect(sent).toContain("Ahoy from the package");
});

test("installing again without force changes nothing; with force reinstalls", async () => {
  const again = await collect(client.installPackage({ package: "test/kit" }));
  expect(again[0].text).toBe("already installed, use --force to overwrite");
  expect(again.some((e) => e.kind === "setup_output")).toBe(false);
  const forced = await collect(client.installPackage({ package: "test/kit", force: true }));
  expect(forced.filter((e) => e.kind === "setup_output").map((e) => e.text)).toContain("setup line one");
});

test("an MCP-only package's server is connected, listed with its package, and callable by an agent", async () => {
  const events = await collect(client.installPackage({ package: "test/mcponly" }));
  expect(events.at(-1)).toEqual({ kind: "done", text: "" });
  expect(events.some((e) => e.text.startsWith("cloning"))).toBe(false);
  const mcp = (await client.listMcps()).find((m) => m.name === "pkg-everything")!;
  expect(mcp).toMatchObject({ source: "test/mcponly", sourceKind: SourceKind.PACKAGE, status: McpStatus.CONNECTED });
  expect(await agentCallsMcpTool(fx.env.fake, client, "echo", { message: "from a package" })).toContain("from a package");
});

test("a setup prompt (a .md file of the repository) runs on the default agent, its answer streamed as setup output", async () => {
  fx.env.fake.script({ text: "configured line A\nconfigured line B" });
  const events = await collect(client.installPackage({ package: "test/prompted" }));
  expect(events.at(-1)).toEqual({ kind: "done", text: "" });
  expect(events.filter((e) => e.kind === "setup_output").map((e) => e.text)).toEqual(["configured line A", "configured line B"]);
  expect(streamedSystem()).toContain("PROMPT-FROM-FILE: set yourself up.");
  await collect(client.uninstallPackage("test/prompted"));
});

test("install warns about names that clash and about MCP servers that need a token", async () => {
  const events = await collect(client.installPackage({ package: "test/clash" }));
  const warnings = events.filter((e) => e.kind === "warning").map((e) => e.text);
  // test/clash sorts before test/kit, so it wins 'helper' and test/kit's is the one skipped.
  expect(warnings).toContain("agent 'helper' from test/kit conflicts with already-loaded agent, skipping");
  expect(warnings.some((w) => w.startsWith("MCP 'needs-login' needs OAuth and has no token yet"))).toBe(true);
  expect(events.at(-1)).toEqual({ kind: "done", text: "" });
  await collect(client.uninstallPackage("test/clash"));
  expect((await client.listAgents()).find((a) => a.name === "helper")?.source).toBe("test/kit");
});

test("a failing setup script leaves nothing installed and ends the stream with an error", async () => {
  const before = await client.listPackages();
  const seen: string[] = [];
  const err = await daemonError(
    (async () => {
      for await (const e of client.installPackage({ package: "test/broken" })) {
        if (e.event.case === "setupOutput") seen.push(e.event.value.content);
      }
    })(),
  );
  expect(err.code).toBe(500);
  expect(err.message).toContain("setup script failed (exit 3)");
  expect(seen).toEqual(["about to fail"]);
  expect(await client.listPackages()).toEqual(before);
  expect(existsSync(join(fx.env.daemon.home, "packages/test/broken.toml"))).toBe(false);
  expect(existsSync(join(fx.env.daemon.home, ".cache/repos", repoSlug(brokenRepo)))).toBe(false);
  await client.ping(); // the daemon is fine
});

test("a crate command is installed with cargo, its output streamed, and cargo-uninstalled with the package", async () => {
  const events = await collect(client.installPackage({ package: "test/crate" }));
  expect(events).toContainEqual({ kind: "step", text: "installing crabtalk-faketool with cargo…" });
  expect(events).toContainEqual({ kind: "setup_output", text: "   Compiling crabtalk-faketool" });
  expect(existsSync(join(cargoBin, "crabtalk-faketool"))).toBe(true);
  await collect(client.uninstallPackage("test/crate"));
  expect(existsSync(join(cargoBin, "crabtalk-faketool"))).toBe(false);
});

test("a command that cannot be had fails the install with a clear error and no manifest", async () => {
  const err = await daemonError(collect(client.installPackage({ package: "test/nocmd" })));
  expect(err.message).toContain("'crabtalk-no-such-program' is not on PATH");
  expect(existsSync(join(fx.env.daemon.home, "packages/test/nocmd.toml"))).toBe(false);
});

test("hostile manifests: files outside the repository are not read, path-like command names and option-like branches are refused", async () => {
  fx.env.fake.script({ text: "nothing to say" });
  await collect(client.installPackage({ package: "test/sneaky" }));
  const prompts = fx.env.fake.requests.map((r) => JSON.stringify(r.body ?? {}));
  expect(prompts.at(-1)).toContain("setup.md"); // the prompt is the text itself, not the linked file
  expect(prompts.some((p) => p.includes("SECRET-OUTSIDE"))).toBe(false);
  expect((await client.listAgents()).some((a) => a.name === "spy")).toBe(false);
  await collect(client.uninstallPackage("test/sneaky"));

  const escaping = await daemonError(collect(client.installPackage({ package: "test/escape" })));
  expect(escaping.message).toContain("command names are letters");
  const branch = await daemonError(collect(client.installPackage({ package: "test/optbranch" })));
  expect(branch.message).toContain("invalid branch name");
  expect(existsSync("/tmp/crabtalk-pwned")).toBe(false);
  expect((await client.listPackages()).map((p) => p.name)).not.toContain("test/escape");
});

test("an install goes on to its end when the client goes away mid-stream", async () => {
  const leaving = await fx.env.daemon.client();
  for await (const e of leaving.installPackage({ package: "test/slow" })) {
    if (e.event.case === "setupOutput") break; // "first": the script still sleeps
  }
  await leaving.close();
  const names = await until(
    async () => (await client.listPackages()).map((p) => p.name),
    (n) => n.includes("test/slow"),
  );
  expect(names).toContain("test/slow");
  await collect(client.uninstallPackage("test/slow"));
});

test("package ids with path tricks, and symlinked scope directories, are refused with 400", async () => {
  for (const id of ["../x/y", "../x", "x/../y", "/etc/passwd", "a/b/c", "a", "./b", "a/..", "a/", ""]) {
    expect((await daemonError(collect(client.installPackage({ package: id })))).code).toBe(400);
    expect((await daemonError(collect(client.uninstallPackage(id)))).code).toBe(400);
  }
  const outside = mkdtempSync(join(tmpdir(), "crabtalk-outside-"));
  symlinkSync(outside, join(fx.env.daemon.home, "packages/evil"));
  expect((await daemonError(collect(client.installPackage({ package: "evil/kit", path: hub })))).code).toBe(400);
  expect((await daemonError(collect(client.uninstallPackage("evil/kit")))).code).toBe(400);
  expect(readdirSync(outside)).toEqual([]);
  expect((await daemonError(collect(client.uninstallPackage("test/not-installed")))).code).toBe(404);
  // A package the hub does not have is not found, not a daemon failure.
  const missing = await daemonError(collect(client.installPackage({ package: "test/no-such-package" })));
  expect({ code: missing.code, message: missing.message }).toEqual({
    code: 404,
    message: "package 'test/no-such-package' is not in the hub (crabtalk search lists what is)",
  });
  expect((await daemonError(collect(client.installPackage({ package: "test/kit", path: "relative/hub" })))).code).toBe(400);
});

test("InstallPackage.path installs from a local hub directory", async () => {
  const local = mkdtempSync(join(tmpdir(), "crabtalk-localhub-"));
  mkdirSync(join(local, "here"));
  await Bun.write(join(local, "here/thing.toml"), '[package]\ndescription = "from a directory"\n[agents.localthing]\n');
  const events = await collect(client.installPackage({ package: "here/thing", path: local }));
  expect(events[0].text).toBe(`using hub at ${local}`);
  expect((await client.listPackages()).map((p) => p.name)).toContain("here/thing");
  await collect(client.uninstallPackage("here/thing"));
});

test("uninstall removes every trace: manifest, scope directory, cached repository, skills, agent, MCP server", async () => {
  const home = fx.env.daemon.home;
  await collect(client.uninstallPackage("test/mcponly"));
  const events = await collect(client.uninstallPackage("test/kit"));
  expect(events.at(-1)).toEqual({ kind: "done", text: "" });
  expect(await client.listPackages()).toEqual([]);
  expect(existsSync(join(home, "packages/test"))).toBe(false);
  expect(readdirSync(join(home, ".cache/repos"))).toEqual([]);
  expect((await client.listSkills()).some((s) => s.name === "greet")).toBe(false);
  expect((await client.listAgents()).some((a) => a.name === "helper")).toBe(false);
  expect((await client.listMcps()).some((m) => m.name === "pkg-everything")).toBe(false);
});
