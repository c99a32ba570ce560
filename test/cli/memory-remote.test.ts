// `crabtalk memory` is a protocol client (docs/memory.md#memory-from-the-command-line):
// pointed at a daemon whose home is elsewhere — its own CRABTALK_HOME holding
// only run/crabtalk.sock, a link to the daemon's socket — every subcommand works,
// and nothing is read from or written to the CLI's home.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

setDefaultTimeout(30_000);

let s: FakeSetup;
let remote: string;
beforeAll(async () => {
  s = await startFakeSetup();
  remote = tempHome("crabtalk-remote-");
  mkdirSync(join(remote, "run"));
  symlinkSync(s.daemon.socket, join(remote, "run/crabtalk.sock"));
});
afterAll(async () => {
  await s.stop();
  cleanup(remote);
});

const memory = (args: string[], stdin?: string) => runCli(["memory", ...args], { home: remote, stdin });
/** Every path under `dir`, relative, sorted. */
const tree = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

test("memory add, list, show, search and forget work through the socket alone", async () => {
  expect(await memory(["list"])).toMatchObject({ code: 0, stdout: "no memories\n" });

  expect(await memory(["add", "Deploys go out on Fridays after the standup", "--name", "deploys"])).toMatchObject({
    code: 0,
    stderr: "",
    stdout: "remembered deploys\n",
  });
  const piped = await memory(["add", "--description", "the user's editor"], "Uses Helix with the default keymap\n");
  expect(piped).toMatchObject({ code: 0, stdout: "remembered Uses Helix with the default keymap\n" });
  // The daemon wrote them in its own home.
  expect(readdirSync(join(s.daemon.home, "memory/entries")).sort()).toEqual(["deploys.md", "uses-helix-with-the-default-keymap.md"]);
  expect(readFileSync(join(s.daemon.home, "memory/entries/deploys.md"), "utf8")).toBe(
    "---\nname: deploys\ndescription: Deploys go out on Fridays after the standup\n---\n\nDeploys go out on Fridays after the standup\n",
  );

  const list = await memory(["list"]);
  expect(list.stdout).toMatch(
    /^NAME\s+DESCRIPTION\nUses Helix with the default keymap\s+the user's editor\ndeploys\s+Deploys go out on Fridays after the standup\n$/,
  );
  expect(JSON.parse((await memory(["list", "--json"])).stdout)).toEqual([
    { name: "Uses Helix with the default keymap", description: "the user's editor", content: "Uses Helix with the default keymap" },
    { name: "deploys", description: "Deploys go out on Fridays after the standup", content: "Deploys go out on Fridays after the standup" },
  ]);
  expect(await memory(["show", "deploys"])).toMatchObject({
    code: 0,
    stdout: "deploys\nDeploys go out on Fridays after the standup\n\nDeploys go out on Fridays after the standup\n",
  });
  expect((await memory(["search", "helix", "keymap"])).stdout).toMatch(/^NAME\s+DESCRIPTION\nUses Helix with the default keymap\s+the user's editor\n$/);
  expect((await memory(["search", "-n", "1", "fridays", "helix"])).stdout.trim().split("\n")).toHaveLength(2);
  expect((await memory(["search", "zebra"])).stdout).toBe("no memories\n");

  // The next run's recall finds what was added, without a reload.
  expect((await runCli(["send", "--sender", "remote", "when do deploys go out?"], { home: remote })).code).toBe(0);
  expect(s.lastChatBody()).toContain("after the standup");

  expect(await memory(["forget", "deploys"])).toMatchObject({ code: 0, stdout: "forgot deploys\n" });
  expect(readdirSync(join(s.daemon.home, "memory/entries"))).toEqual(["uses-helix-with-the-default-keymap.md"]);
  expect(await memory(["show", "deploys"])).toMatchObject({
    code: 1,
    stdout: "",
    stderr: "crabtalk: no memory named 'deploys': see crabtalk memory list\n",
  });

  // The CLI's home still holds the link alone.
  expect(tree(remote)).toEqual(["run", join("run", "crabtalk.sock")]);
});

test("memory refusals keep their words and exit codes over the protocol", async () => {
  const taken = await memory(["add", "another editor", "--name", "Uses Helix with the default keymap"]);
  expect(taken).toMatchObject({
    code: 1,
    stderr:
      "crabtalk: a memory named 'Uses Helix with the default keymap' exists already: pick another --name, or crabtalk memory forget 'Uses Helix with the default keymap' first\n",
  });
  expect(await memory(["add", "  "])).toMatchObject({ code: 1, stderr: "crabtalk: nothing to remember: give the text as an argument or on standard input\n" });
  const path = await memory(["add", "x", "--name", "../x"]);
  expect(path.code).toBe(1);
  expect(path.stderr).toContain("looks like a file path");
  expect((await memory(["forget", "/etc/passwd"])).code).toBe(1);
  expect((await memory(["search", "-n", "0", "x"])).stderr).toContain("--limit must be a whole number");
  expect(readdirSync(join(s.daemon.home, "memory/entries"))).toEqual(["uses-helix-with-the-default-keymap.md"]);

  // No daemon behind the socket: exit 2, as every client command.
  const nowhere = tempHome("crabtalk-nowhere-");
  try {
    expect((await runCli(["memory", "list"], { home: nowhere })).code).toBe(2);
  } finally {
    cleanup(nowhere);
  }
});
