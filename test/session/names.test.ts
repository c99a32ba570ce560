import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { latestSessionFile, nextSeq, parseSessionFileName, sessionFileName, withTitleSlug } from "../../src/session/names.ts";
import { tempDir } from "./tmp.ts";

const touch = (dir: string, ...names: string[]) => {
  for (const n of names) fs.writeFileSync(path.join(dir, n), "");
};

describe("sessionFileName", () => {
  test("is {agent}_{sender slug}_{seq}.jsonl", () => {
    expect(sessionFileName("crab", "TG:user-123", 4)).toBe("crab_tg-user-123_4.jsonl");
  });

  test("a title adds its slug; an empty slug adds nothing", () => {
    expect(sessionFileName("crab", "user", 2, "My Chat")).toBe("crab_user_2_my-chat.jsonl");
    expect(sessionFileName("crab", "user", 2, ":::")).toBe("crab_user_2.jsonl");
  });
});

describe("parseSessionFileName (docs/sessions.md#listing-killing-deleting)", () => {
  test("agent, sender, seq and title slug", () => {
    expect(parseSessionFileName("crab_user_3.jsonl")).toEqual({ agent: "crab", sender: "user", seq: 3, title: "" });
    expect(parseSessionFileName("crab_tg-1_12_my-chat.jsonl")).toEqual({
      agent: "crab",
      sender: "tg-1",
      seq: 12,
      title: "my-chat",
    });
  });

  test("the first all-digit part at index ≥ 2 is the seq; parts between form the sender", () => {
    // "7" at index 1 is sender, not seq.
    expect(parseSessionFileName("crab_7_2.jsonl")).toEqual({ agent: "crab", sender: "7", seq: 2, title: "" });
    expect(parseSessionFileName("a_b_c_5_x_y.jsonl")).toEqual({ agent: "a", sender: "b_c", seq: 5, title: "x_y" });
  });

  test("fewer than 3 parts, no seq or another extension: not a session name", () => {
    expect(parseSessionFileName("crab_1.jsonl")).toBeUndefined();
    expect(parseSessionFileName("crab_user_x.jsonl")).toBeUndefined();
    expect(parseSessionFileName("crab_user_1.json")).toBeUndefined();
    expect(parseSessionFileName("crab_user_1a.jsonl")).toBeUndefined();
  });

  test("round trip of names we make", () => {
    expect(parseSessionFileName(sessionFileName("crab", "Alice", 9, "Deploy plan"))).toEqual({
      agent: "crab",
      sender: "alice",
      seq: 9,
      title: "deploy-plan",
    });
  });

  test("withTitleSlug replaces a title and keeps the parts up to the seq verbatim", () => {
    expect(withTitleSlug("crab_user_3.jsonl", "new")).toBe("crab_user_3_new.jsonl");
    expect(withTitleSlug("crab_user_3_old-title.jsonl", "new")).toBe("crab_user_3_new.jsonl");
    expect(withTitleSlug("crab_user_007.jsonl", "t")).toBe("crab_user_007_t.jsonl");
    expect(withTitleSlug("odd.jsonl", "t")).toBe("odd_t.jsonl");
  });
});

describe("nextSeq and latestSessionFile (docs/sessions.md#files-and-names)", () => {
  test("with crab_user_1, crab_user_3, crab_user_2 the latest for (crab, user) is crab_user_3", async () => {
    const dir = tempDir();
    touch(dir, "crab_user_1.jsonl", "crab_user_3.jsonl", "crab_user_2.jsonl");
    expect(await latestSessionFile(dir, "crab", "user")).toBe(path.join(dir, "crab_user_3.jsonl"));
    expect(await nextSeq(dir, "crab", "user")).toBe(4);
  });

  test("an empty sessions directory has no latest session and next seq 1", async () => {
    const dir = tempDir();
    expect(await latestSessionFile(dir, "crab", "user")).toBeUndefined();
    expect(await nextSeq(dir, "crab", "user")).toBe(1);
  });

  test("a missing sessions directory behaves like an empty one", async () => {
    const dir = path.join(tempDir(), "nope");
    expect(await latestSessionFile(dir, "crab", "user")).toBeUndefined();
    expect(await nextSeq(dir, "crab", "user")).toBe(1);
  });

  test("another agent's file (other_agent_user_1.jsonl) is not the latest of crab", async () => {
    const dir = tempDir();
    touch(dir, "other_agent_user_1.jsonl");
    expect(await latestSessionFile(dir, "crab", "user")).toBeUndefined();
  });

  test("prefixes do not leak between identities", async () => {
    const dir = tempDir();
    // Agent `other_agent`/sender `user`, agent `crab-2`, sender `user-x`, and a `.json` file.
    touch(dir, "other_agent_user_1.jsonl", "crab-2_user_5.jsonl", "crab_user-x_6.jsonl", "crab_user_9.json");
    expect(await latestSessionFile(dir, "other", "agent")).toBeUndefined();
    expect(await nextSeq(dir, "other", "agent")).toBe(1);
    expect(await latestSessionFile(dir, "crab", "user")).toBeUndefined();
    expect(await latestSessionFile(dir, "other_agent", "user")).toBe(path.join(dir, "other_agent_user_1.jsonl"));
  });

  test("a title suffix is ignored when reading the seq; the sender is slugged", async () => {
    const dir = tempDir();
    touch(dir, "crab_tg-7_2_my-chat.jsonl", "crab_tg-7_1.jsonl");
    expect(await latestSessionFile(dir, "crab", "TG:7")).toBe(path.join(dir, "crab_tg-7_2_my-chat.jsonl"));
    expect(await nextSeq(dir, "crab", "TG:7")).toBe(3);
  });

  test("seq order is numeric, not lexical", async () => {
    const dir = tempDir();
    touch(dir, "crab_user_9.jsonl", "crab_user_10.jsonl");
    expect(await latestSessionFile(dir, "crab", "user")).toBe(path.join(dir, "crab_user_10.jsonl"));
  });
});
