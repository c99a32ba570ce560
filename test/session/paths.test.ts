import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { resolveSessionPath, SessionPathError, type SessionPathErrorReason } from "../../src/session/paths.ts";
import { tempDir } from "./tmp.ts";

/** A home with `sessions/` holding one session file and a secret beside it. */
function home() {
  const root = tempDir();
  const sessions = path.join(root, "sessions");
  fs.mkdirSync(sessions);
  const file = path.join(sessions, "crab_user_1.jsonl");
  fs.writeFileSync(file, "{}\n");
  const outside = path.join(root, "secret.jsonl");
  fs.writeFileSync(outside, "{}\n");
  return { root, sessions, file, outside };
}

function reason(sessions: string, filePath: string): SessionPathErrorReason {
  try {
    resolveSessionPath(sessions, filePath);
  } catch (err) {
    if (err instanceof SessionPathError) return err.reason;
    throw err;
  }
  throw new Error(`${filePath} was accepted`);
}

describe("resolveSessionPath", () => {
  test("accepts an absolute path inside sessions/ and a bare file name", () => {
    const h = home();
    expect(resolveSessionPath(h.sessions, h.file)).toBe(h.file);
    expect(resolveSessionPath(h.sessions, "crab_user_1.jsonl")).toBe(h.file);
    expect(resolveSessionPath(h.sessions, "./crab_user_1.jsonl")).toBe(h.file);
  });

  test("a `..` path that comes back into sessions/ is fine; one that escapes is outside", () => {
    const h = home();
    expect(resolveSessionPath(h.sessions, "../sessions/crab_user_1.jsonl")).toBe(h.file);
    expect(reason(h.sessions, "../secret.jsonl")).toBe("outside");
    expect(reason(h.sessions, `${h.sessions}/../secret.jsonl`)).toBe("outside");
    expect(reason(h.sessions, "../../../../../../etc/passwd.jsonl")).toBe("outside");
  });

  test("an absolute path elsewhere is outside, whether or not it exists", () => {
    const h = home();
    expect(reason(h.sessions, h.outside)).toBe("outside");
    expect(reason(h.sessions, path.join(h.root, "nope.jsonl"))).toBe("outside");
    expect(reason(h.sessions, "/etc/passwd")).toBe("outside");
  });

  test("a missing file inside sessions/ is missing", () => {
    const h = home();
    expect(reason(h.sessions, "crab_user_9.jsonl")).toBe("missing");
    expect(reason(h.sessions, path.join(h.sessions, "crab_user_9.jsonl"))).toBe("missing");
  });

  test("non-.jsonl names, empty paths, directories and subdirectories are outside", () => {
    const h = home();
    fs.writeFileSync(path.join(h.sessions, "notes.txt"), "x");
    fs.mkdirSync(path.join(h.sessions, "dir.jsonl"));
    fs.mkdirSync(path.join(h.sessions, "sub"));
    fs.writeFileSync(path.join(h.sessions, "sub", "crab_user_2.jsonl"), "{}\n");
    for (const p of ["notes.txt", "", ".", h.sessions, ".jsonl", "dir.jsonl", "sub/crab_user_2.jsonl", "crab_user_1.jsonl\0x"]) {
      expect(reason(h.sessions, p)).toBe("outside");
    }
  });

  test("a symlinked file pointing outside is outside; one pointing to a session file inside is its target", () => {
    const h = home();
    fs.symlinkSync(h.outside, path.join(h.sessions, "evil.jsonl"));
    expect(reason(h.sessions, "evil.jsonl")).toBe("outside");
    fs.symlinkSync(h.file, path.join(h.sessions, "alias.jsonl"));
    expect(resolveSessionPath(h.sessions, "alias.jsonl")).toBe(h.file);
    // A link to a non-.jsonl file inside sessions/ is not a session file either.
    fs.writeFileSync(path.join(h.sessions, "notes.txt"), "x");
    fs.symlinkSync(path.join(h.sessions, "notes.txt"), path.join(h.sessions, "notes.jsonl"));
    expect(reason(h.sessions, "notes.jsonl")).toBe("outside");
  });

  test("a dangling symlink is outside", () => {
    const h = home();
    fs.symlinkSync(path.join(h.root, "gone.jsonl"), path.join(h.sessions, "dangling.jsonl"));
    expect(reason(h.sessions, "dangling.jsonl")).toBe("outside");
  });

  test("a symlinked directory inside sessions/ pointing out is outside", () => {
    const h = home();
    const elsewhere = path.join(h.root, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, "crab_user_1.jsonl"), "{}\n");
    fs.symlinkSync(elsewhere, path.join(h.sessions, "link"));
    expect(reason(h.sessions, "link/crab_user_1.jsonl")).toBe("outside");
    expect(reason(h.sessions, path.join(h.sessions, "link", "crab_user_1.jsonl"))).toBe("outside");
  });

  test("a symlinked sessions directory itself is followed; the real path is returned", () => {
    const h = home();
    const alias = path.join(h.root, "sessions-alias");
    fs.symlinkSync(h.sessions, alias);
    expect(resolveSessionPath(alias, "crab_user_1.jsonl")).toBe(h.file);
    expect(resolveSessionPath(alias, path.join(alias, "crab_user_1.jsonl"))).toBe(h.file);
    expect(resolveSessionPath(alias, h.file)).toBe(h.file);
    expect(reason(alias, "../secret.jsonl")).toBe("outside");
  });

  test("a relative sessions directory is taken from the working directory", () => {
    const h = home();
    const rel = path.relative(process.cwd(), h.sessions);
    expect(resolveSessionPath(rel, "crab_user_1.jsonl")).toBe(h.file);
  });

  test("a missing sessions directory makes inside paths missing", () => {
    const dir = path.join(tempDir(), "sessions");
    expect(reason(dir, "crab_user_1.jsonl")).toBe("missing");
    expect(reason(dir, "../x.jsonl")).toBe("outside");
  });

  test("the error message says what is wrong", () => {
    const h = home();
    try {
      resolveSessionPath(h.sessions, "../secret.jsonl");
      throw new Error("accepted");
    } catch (err) {
      expect((err as Error).message).toContain("inside the sessions directory");
    }
  });
});
