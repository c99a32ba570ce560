// The table of provider kinds (src/base/provider-kinds.ts) is the one place a
// kind is described: what it cannot force by its types is checked here — the
// wire enum has the kind, the docs describe it, and its adapter exists.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { PROVIDER_KINDS, PROVIDER_KIND_TABLE, providerKindSpec } from "../../src/base/provider-kinds.ts";
import { kindName, wireKind } from "../../src/protocol/provider-kind.ts";
import { ProviderKind as WireKind } from "../../src/protocol/gen/crabtalk_pb.ts";

const REPO = resolve(import.meta.dir, "../..");

describe("provider kinds", () => {
  test("every kind has its own value of the wire enum, and reads back as itself", () => {
    const wire = PROVIDER_KINDS.map(wireKind);
    expect(wire).not.toContain(WireKind.PROVIDER_KIND_UNKNOWN);
    expect(new Set(wire).size).toBe(PROVIDER_KINDS.length);
    expect(PROVIDER_KINDS.map((k) => kindName(wireKind(k)))).toEqual([...PROVIDER_KINDS]);
    // An unset kind on the wire is the default kind.
    expect(kindName(WireKind.PROVIDER_KIND_UNKNOWN)).toBe("openai");
  });

  test("every kind's API has an adapter folder", () => {
    for (const kind of PROVIDER_KINDS) {
      expect({ kind, adapter: existsSync(resolve(REPO, `src/model/${PROVIDER_KIND_TABLE[kind].api}/adapter.ts`)) }).toEqual({ kind, adapter: true });
    }
  });

  test("docs/providers.md describes every kind under The kinds", () => {
    const text = readFileSync(resolve(REPO, "docs/providers.md"), "utf8");
    const section = text.slice(text.indexOf("## The kinds"), text.indexOf("\n## ", text.indexOf("## The kinds") + 1));
    const headed = [...section.matchAll(/^### (.*)$/gm)].map((m) => m[1]!).join(" ");
    expect(PROVIDER_KINDS.filter((k) => !headed.includes(`\`${k}\``))).toEqual([]);
  });

  test("a kind given as text is looked up only when it is one", () => {
    expect(providerKindSpec("bedrock")?.api).toBe("bedrock");
    expect(providerKindSpec("toString")).toBeUndefined();
    expect(providerKindSpec("nosuch")).toBeUndefined();
  });
});
