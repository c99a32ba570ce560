// `crabtalk tokens create|list|revoke` against a real daemon: the token is
// printed once and nowhere else — not by list, not in <home>/remote/tokens.json
// (docs/remote.md#the-cli).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(async () => {
  await s.stop();
});

interface Listed {
  name: string;
  scope: string;
  created_ms: number;
  last_used_ms: number;
  expires_ms: number;
}
const listed = async (): Promise<Listed[]> => JSON.parse((await s.cli(["tokens", "list", "--json"])).stdout);

test("create prints the token once; list and tokens.json never show it; revoke removes it", async () => {
  const before = Date.now();
  const made = await s.cli(["tokens", "create", "laptop", "--scope", "operate", "--expires", "30d"]);
  expect(made.code).toBe(0);
  const token = made.stdout.trim();
  expect(token).toMatch(/^ct_[A-Za-z0-9_-]{22,}$/); // the prefix, then at least 128 random bits
  expect(made.stdout).toBe(`${token}\n`);
  expect(made.stderr).toMatch(/^created token 'laptop' \(scope operate, expires \d{4}-\d\d-\d\d \d\d:\d\d\):\n/);
  expect(made.stderr).toContain("This is the only time it is shown");
  expect(made.stderr).not.toContain(token);

  const json = await s.cli(["tokens", "create", "ci", "--scope", "read", "--json"]);
  expect(json.code).toBe(0);
  const ci = JSON.parse(json.stdout) as Listed & { token: string };
  expect(ci).toMatchObject({ name: "ci", scope: "read", expires_ms: 0 });
  expect(ci.token).toMatch(/^ct_/);
  expect(ci.token).not.toBe(token);

  const table = await s.cli(["tokens"]);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^NAME\s+SCOPE\s+CREATED\s+LAST USED\s+EXPIRES$/m);
  expect(table.stdout).toMatch(/^laptop\s+operate\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+never\s+\d{4}-\d\d-\d\d \d\d:\d\d$/m);
  expect(table.stdout).toMatch(/^ci\s+read\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+never\s+never$/m);

  const list = await s.cli(["tokens", "list", "--json"]);
  const tokens = JSON.parse(list.stdout) as Listed[];
  expect(tokens.map((t) => [t.name, t.scope]).sort()).toEqual([
    ["ci", "read"],
    ["laptop", "operate"],
  ]);
  const laptop = tokens.find((t) => t.name === "laptop")!;
  expect(laptop.created_ms).toBeGreaterThanOrEqual(before - 1000);
  expect(laptop.last_used_ms).toBe(0);
  expect(Math.abs(laptop.expires_ms - (laptop.created_ms + 30 * 86_400_000))).toBeLessThan(5_000);
  for (const out of [table.stdout, list.stdout]) {
    expect(out).not.toContain(token);
    expect(out).not.toContain(ci.token);
  }

  const file = join(s.daemon.home, "remote", "tokens.json");
  const stored = readFileSync(file, "utf8");
  expect(stored).toContain("laptop");
  expect(stored).not.toContain(token);
  expect(stored).not.toContain(token.slice(3)); // nor the token without its prefix
  expect(stored).not.toContain(ci.token.slice(3));
  expect(statSync(file).mode & 0o777).toBe(0o600);

  const revoked = await s.cli(["tokens", "revoke", "laptop"]);
  expect(revoked).toMatchObject({ code: 0, stdout: "token 'laptop' revoked\n" });
  expect((await listed()).map((t) => t.name)).toEqual(["ci"]);
  const again = await s.cli(["tokens", "revoke", "laptop"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("laptop");
  expect((await s.cli(["tokens", "revoke", "ci"])).code).toBe(0);
});

test("a bad scope, name or lifetime, or a taken name, is refused with a message, exit 1, and nothing made", async () => {
  expect((await s.cli(["tokens", "create", "first", "--scope", "admin"])).code).toBe(0);
  const cases: [string[], string][] = [
    [["tokens", "create", "x", "--scope", "owner"], "a scope is read, operate or admin, not 'owner'"],
    [["tokens", "create", "x"], "required option '--scope <scope>' not specified"],
    [["tokens", "create", "x", "--scope", "read", "--expires", "soon"], "--expires takes a lifetime such as 90m, 12h, 30d, 2w or 1y (or never), not 'soon'"],
    [["tokens", "create", "x", "--scope", "read", "--expires", "0d"], "not '0d'"],
    [["tokens", "create", "x", "--scope", "read", "--expires", "11y"], "--expires '11y' is longer than 10 years"],
    [["tokens", "create", "has space", "--scope", "read"], "has space"],
    [["tokens", "create", "../escape", "--scope", "read"], "../escape"],
    [["tokens", "create", "first", "--scope", "read"], "first"],
  ];
  for (const [args, message] of cases) {
    const r = await s.cli(args);
    expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: "" });
    expect(r.stderr).toContain(message);
  }
  expect((await listed()).map((t) => [t.name, t.scope])).toEqual([["first", "admin"]]);
});
