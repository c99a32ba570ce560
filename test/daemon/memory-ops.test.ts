// The memory operations (docs/protocol.md#memory) against a real daemon: what
// each answers, and the bad input each refuses with a code and nothing written.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";

let daemon: TestDaemon;
let c: Client;
const entries = () => readdirSync(join(daemon.home, "memory/entries")).sort();
/** Every path under the home but the logs, relative, sorted. */
const homeTree = () => (readdirSync(daemon.home, { recursive: true }) as string[]).filter((p) => !p.startsWith("logs")).sort();

beforeAll(async () => {
  const home = tempHome();
  // An entry written by hand with a name AddMemory refuses: still shown and forgotten by that name.
  mkdirSync(join(home, "memory/entries"), { recursive: true });
  writeFileSync(join(home, "memory/entries/odd.md"), "---\nname: ../odd\ndescription: hand-made\n---\n\nkept as written\n");
  daemon = await startDaemon({ home });
  c = await daemon.client();
});
afterAll(async () => {
  await c.close();
  expect(await daemon.stop()).toBe(0);
  cleanup(daemon.home);
});

test("AddMemory saves an entry the other operations see; names and descriptions default to the first line", async () => {
  const added = await c.addMemory({ name: "  vet  ", description: "Luna's  vet\nappointment", content: "Tuesday at 10,\r\nDr. Moss\n" });
  expect({ ...added }).toMatchObject({ name: "vet", description: "Luna's vet appointment", content: "Tuesday at 10,\nDr. Moss" });
  const dflt = await c.addMemory({ content: "\n  The staging server is staging.example.com and deploys run every Friday afternoon\nsecond line" });
  expect(dflt.name).toBe("The staging server is staging.example.com and");
  expect(dflt.description).toBe("The staging server is staging.example.com and deploys run every Friday afternoon");
  expect(entries()).toEqual(["odd.md", "the-staging-server-is-staging-example-com-and.md", "vet.md"]);

  expect((await c.listMemory()).map((e) => e.name)).toEqual(["../odd", "The staging server is staging.example.com and", "vet"]);
  expect((await c.getMemory(" vet ")).content).toBe("Tuesday at 10,\nDr. Moss");
  expect((await c.searchMemory("vet appointment")).map((e) => e.name)).toEqual(["vet"]);
  expect((await c.searchMemory("staging vet", 1)).length).toBe(1);
  expect(await c.searchMemory("zebra")).toEqual([]);
});

test("an unknown entry is 404, for GetMemory and ForgetMemory alike", async () => {
  const get = await daemonError(c.getMemory("nobody"));
  expect(get.code).toBe(404);
  expect(get.message).toBe("no memory named 'nobody': see crabtalk memory list");
  expect((await daemonError(c.forgetMemory("nobody"))).code).toBe(404);
});

test("bad names, empty content and empty queries are 400 and write nothing", async () => {
  const before = homeTree();
  const refused = async (p: Promise<unknown>, words: string) => {
    const err = await daemonError(p);
    expect({ code: err.code, message: err.message }).toMatchObject({ code: 400, message: expect.stringContaining(words) });
  };
  for (const name of ["../x", "/etc/passwd", "a/../../b", "..", "./x", "\\windows\\x", "~/notes"]) {
    await refused(c.addMemory({ name, content: "payload" }), "looks like a file path");
  }
  await refused(c.addMemory({ name: "", content: "payload" }), "name is empty");
  await refused(c.addMemory({ name: "   ", content: "payload" }), "name is empty");
  await refused(c.addMemory({ name: "a\nb", content: "payload" }), "single line");
  await refused(c.addMemory({ name: "a\u0000b", content: "payload" }), "control character");
  await refused(c.addMemory({ name: "n".repeat(201), content: "payload" }), "longer than 200");
  await refused(c.addMemory({ name: "fine", content: "" }), "nothing to remember");
  await refused(c.addMemory({ name: "fine", content: " \r\n\t " }), "nothing to remember");
  await refused(c.getMemory("../config"), "looks like a file path");
  await refused(c.forgetMemory("/etc/passwd"), "looks like a file path");
  await refused(c.searchMemory("   "), "query is empty");

  expect(homeTree()).toEqual(before);
  expect((await c.listMemory()).map((e) => e.name)).not.toContain("fine");
});

test("a name taken already is 409 and the entry is unchanged, even for two adds at once", async () => {
  const taken = await daemonError(c.addMemory({ name: "vet", content: "overwritten?" }));
  expect(taken.code).toBe(409);
  expect(taken.message).toContain("a memory named 'vet' exists already");
  expect((await c.getMemory("vet")).content).toBe("Tuesday at 10,\nDr. Moss");

  const other = await daemon.client();
  try {
    const both = await Promise.allSettled([c.addMemory({ name: "race", content: "one" }), other.addMemory({ name: "race", content: "two" })]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const winner = both.find((r) => r.status === "fulfilled")!.value.content;
    expect(readFileSync(join(daemon.home, "memory/entries/race.md"), "utf8")).toContain(winner);
  } finally {
    await other.close();
  }
  expect(entries().filter((f) => f.startsWith("race"))).toEqual(["race.md"]);
});

test("ForgetMemory deletes the entry's file; an entry with an odd name from disk is found by it", async () => {
  expect((await c.getMemory("../odd")).content).toBe("kept as written");
  await c.forgetMemory("../odd");
  await c.forgetMemory("race");
  expect(entries()).not.toContain("odd.md");
  expect(entries()).not.toContain("race.md");
  expect((await daemonError(c.getMemory("race"))).code).toBe(404);
  expect((await c.listMemory()).map((e) => e.name)).toEqual(["The staging server is staging.example.com and", "vet"]);
});
