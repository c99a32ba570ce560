// Daemon log lines: structured, rotated by size, secrets never written.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, formatLine } from "../../src/daemon/log.ts";
import { cleanup } from "../support/daemon.ts";

test("a line is `<time> <LEVEL> <message> key=value…`, quoting values with spaces", () => {
  const line = formatLine("info", "listening", { port: 6688, home: "/tmp/a b", ok: true, session: 7n });
  expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO listening port=6688 home="\/tmp\/a b" ok=true session=7\n$/);
});

test("fields whose names look like secrets are redacted", () => {
  const line = formatLine("warn", "provider", { api_key: "sk-123", apiKey: "sk-456", token: "t", secret_key: "s", model: "m" });
  for (const secret of ["sk-123", "sk-456", "=t ", "=s "]) expect(line).not.toContain(secret);
  expect(line).toContain("api_key=<redacted>");
  expect(line).toContain("model=m");
});

test("the file rotates by size and keeps three old files", () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-log-"));
  const file = join(dir, "logs", "daemon.log");
  const log = createLogger({ file, stderr: false, rotateBytes: 1000 });
  for (let i = 0; i < 200; i++) log.info(`line ${i} ${"x".repeat(40)}`);
  expect(statSync(file).size).toBeLessThanOrEqual(1000);
  for (const n of [1, 2, 3]) expect(existsSync(`${file}.${n}`)).toBe(true);
  expect(existsSync(`${file}.4`)).toBe(false);
  expect(readFileSync(file, "utf8")).toContain("line 199");
  cleanup(dir);
});

test("debug lines are written only at debug level", () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-log-"));
  const file = join(dir, "daemon.log");
  createLogger({ file, stderr: false }).debug("hidden");
  createLogger({ file, stderr: false, level: "debug" }).debug("shown");
  const text = readFileSync(file, "utf8");
  expect(text).not.toContain("hidden");
  expect(text).toContain("DEBUG shown");
  cleanup(dir);
});

test("control characters in the message, keys and values are escaped, so one event is one line", () => {
  const line = formatLine("info", "run\nfake", { sender: "a\nb\u0085c\u2028d\u001b[31m", "k\r": 1, plain: "x" });
  expect(line.split("\n")).toHaveLength(2);
  expect(line).toContain(String.raw`INFO run\nfake sender="a\nb\u0085c\u2028d\u001b[31m" k\r=1 plain=x`);
});

test("batched lines are written together after the loop turn, in order, and at exit", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-log-"));
  const file = join(dir, "daemon.log");
  const log = createLogger({ file, stderr: false, batch: true });
  log.info("first");
  log.warn("second");
  expect(existsSync(file) ? readFileSync(file, "utf8") : "").toBe("");
  await new Promise((resolve) => setImmediate(resolve));
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  expect(lines.map((l) => l.replace(/^\S+ /, ""))).toEqual(["INFO first", "WARN second"]);
  // A line logged just before the process exits is not lost.
  const child = Bun.spawnSync([
    process.execPath,
    "-e",
    `const { createLogger } = await import(${JSON.stringify(join(import.meta.dir, "../../src/daemon/log.ts"))});
     createLogger({ file: ${JSON.stringify(file)}, stderr: false, batch: true }).error("last words");
     process.exit(3);`,
  ]);
  expect(child.exitCode).toBe(3);
  expect(readFileSync(file, "utf8")).toContain("ERROR last words");
  cleanup(dir);
});
