import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { senderSlug, titleSlug } from "../../src/session/slug.ts";

describe("senderSlug (docs/sessions.md#files-and-names)", () => {
  test("`hello` stays `hello`", () => expect(senderSlug("hello")).toBe("hello"));
  test("`TG:user-123` becomes `tg-user-123`", () => expect(senderSlug("TG:user-123")).toBe("tg-user-123"));
  test("`a::b` becomes `a-b` (runs collapse)", () => expect(senderSlug("a::b")).toBe("a-b"));
  test("an empty sender is empty", () => expect(senderSlug("")).toBe(""));
  test("`:::` is empty", () => expect(senderSlug(":::")).toBe(""));
});

describe("senderSlug details", () => {
  test("Unicode letters and digits are kept; only ASCII letters are lower-cased", () => {
    expect(senderSlug("Ünïcödé Привет 日本語 ٣")).toBe("Ünïcödé-Привет-日本語-٣");
    expect(senderSlug("ABC-xyz")).toBe("abc-xyz");
  });

  test("underscores, dots, slashes and spaces become dashes; leading/trailing dashes drop", () => {
    expect(senderSlug("__a_b.c/d e--")).toBe("a-b-c-d-e");
    expect(senderSlug("--x--")).toBe("x");
    expect(senderSlug("../etc/passwd")).toBe("etc-passwd");
  });

  test("emoji are not letters", () => expect(senderSlug("hi 👋 there")).toBe("hi-there"));

  test("title slugs are made the same way", () => {
    expect(titleSlug("My Chat")).toBe("my-chat");
    expect(titleSlug('"Plans: Q3 / Q4"')).toBe("plans-q3-q4");
  });

  test("property: a slug never holds `_`, `/`, runs of `-` or edge dashes, and is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const slug = senderSlug(s);
        expect(slug).not.toMatch(/[_/\\.:\s]|--|^-|-$/);
        expect(senderSlug(slug)).toBe(slug);
      }),
    );
  });
});
