// `crabtalk memory`, `crabtalk skills` and `crabtalk compact` through the real CLI and daemon.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

const remember = (name: string, description: string, content: string) => ({
  toolCalls: [{ id: `r-${name}`, name: "remember", arguments: JSON.stringify({ name, description, content }) }],
});

test("memory list, show, search and forget what an agent remembered", async () => {
  expect((await s.cli(["memory"])).stdout).toBe("no memories\n");
  s.fake.script(remember("vet", "Luna's vet appointment", "Tuesday at 10, Dr. Moss"), remember("coffee", "how the user takes coffee", "black, no sugar"), {
    text: "noted",
  });
  expect((await s.cli(["send", "--sender", "mem", "remember these"])).code).toBe(0);

  const list = await s.cli(["memory", "list"]);
  expect(list.stdout).toMatch(/^NAME\s+DESCRIPTION\ncoffee\s+how the user takes coffee\nvet\s+Luna's vet appointment\n$/);
  expect((await s.cli(["memory", "show", "vet"])).stdout).toBe("vet\nLuna's vet appointment\n\nTuesday at 10, Dr. Moss\n");
  expect((await s.cli(["memory", "search", "vet", "appointment"])).stdout).toMatch(/^NAME\s+DESCRIPTION\nvet\s/);
  expect((await s.cli(["memory", "search", "zebra"])).stdout).toBe("no memories\n");

  const forgot = await s.cli(["memory", "forget", "vet"]);
  expect(forgot).toMatchObject({ code: 0, stdout: "forgot vet\n" });
  expect(readdirSync(join(s.daemon.home, "memory/entries"))).toEqual(["coffee.md"]);
  // The daemon forgot it too: recall before the next run no longer finds it.
  expect((await s.cli(["send", "--new", "--sender", "mem", "when is the vet appointment?"])).code).toBe(0);
  expect(s.lastChatBody()).not.toContain("Dr. Moss");
  const missing = await s.cli(["memory", "show", "vet"]);
  expect(missing).toMatchObject({ code: 1, stderr: "crabtalk: no memory named 'vet': see crabtalk memory list\n" });
  expect((await s.cli(["memory", "forget", "../config"])).code).toBe(1);
  expect(existsSync(join(s.daemon.home, "config.toml"))).toBe(true);
});

test("skills lists the skills agents can use, and where they come from", async () => {
  expect((await s.cli(["skills"])).stdout).toContain("no skills");
  mkdirSync(join(s.daemon.home, "local/skills/greet"), { recursive: true });
  writeFileSync(join(s.daemon.home, "local/skills/greet/SKILL.md"), "---\nname: greet\ndescription: says hello\n---\nGreet.\n");
  expect((await s.cli(["skills"])).stdout).toMatch(/^NAME\s+ENABLED\s+FROM\s+SOURCE\ngreet\s+yes\s+local\s/);
  expect(JSON.parse((await s.cli(["skills", "--json"])).stdout)[0].name).toBe("greet");
});

test("compact prints a summary of your latest session, or of the one named", async () => {
  expect((await s.cli(["send", "we talked about boats"])).code).toBe(0);
  s.fake.script({ text: "We talked about boats." });
  expect(await s.cli(["compact"])).toMatchObject({ code: 0, stdout: "We talked about boats.\n" });
  const bad = await s.cli(["compact", "9999"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("session 9999 not found");
});

test("memory add writes an entry the next run's recall finds; a name taken already or empty text is refused", async () => {
  const added = await s.cli(["memory", "add", "The staging server is staging.example.com, deploys on Fridays", "--name", "staging"]);
  expect(added).toMatchObject({ code: 0, stderr: "", stdout: "remembered staging\n" });
  expect((await s.cli(["memory", "show", "staging"])).stdout).toBe(
    "staging\nThe staging server is staging.example.com, deploys on Fridays\n\nThe staging server is staging.example.com, deploys on Fridays\n",
  );
  expect((await s.cli(["send", "--new", "--sender", "mem-add", "which staging server do we deploy to?"])).code).toBe(0);
  expect(s.lastChatBody()).toContain("staging.example.com");

  // From standard input, named after its first line.
  const piped = await s.cli(["memory", "add"], "Prefers tabs over spaces in every language they write\nand 100-column lines.\n");
  expect(piped).toMatchObject({ code: 0, stdout: "remembered Prefers tabs over spaces in every language they\n" });
  const entries = readdirSync(join(s.daemon.home, "memory/entries"));
  expect(entries).toContain("prefers-tabs-over-spaces-in-every-language-they.md");

  const taken = await s.cli(["memory", "add", "another server", "--name", "staging"]);
  expect(taken.code).toBe(1);
  expect(taken.stderr).toBe("crabtalk: a memory named 'staging' exists already: pick another --name, or crabtalk memory forget 'staging' first\n");
  expect((await s.cli(["memory", "show", "staging"])).stdout).toContain("deploys on Fridays");
  const empty = await s.cli(["memory", "add", "   "]);
  expect(empty.code).toBe(1);
  expect(empty.stderr).toContain("nothing to remember");
  expect(readdirSync(join(s.daemon.home, "memory/entries"))).toEqual(entries);
});
