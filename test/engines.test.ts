// The README promises Node 20 (20.12 or newer) and npm: every package `npm ci`
// installs must accept Node 20.12, or npm warns EBADENGINE on a fresh machine.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./support/daemon.ts";

const NODE = [20, 12, 0];

type Version = number[];

function parseVersion(text: string): Version {
  return text
    .replace(/^v/, "")
    .split(".")
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0))
    .concat([0, 0, 0])
    .slice(0, 3);
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether `version` satisfies an npm `engines` range (the comparator forms packages use). */
function satisfies(version: Version, range: string): boolean {
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .filter((c) => c !== "" && c !== "*" && c !== "x")
      .every((comparator) => {
        const [, op = "", v] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!;
        const c = compare(version, parseVersion(v));
        const major = parseVersion(v)[0];
        switch (op) {
          case ">=":
            return c >= 0;
          case ">":
            return c > 0;
          case "<=":
            return c <= 0;
          case "<":
            return c < 0;
          case "^":
          case "~":
            return c >= 0 && version[0] === major;
          default:
            return v.split(".").length < 3 ? version[0] === major : c === 0;
        }
      }),
  );
}

test("the range check reads the forms packages use", () => {
  expect(satisfies(NODE, ">=20")).toBe(true);
  expect(satisfies(NODE, ">= 18.0.0")).toBe(true);
  expect(satisfies(NODE, ">=22.12.0")).toBe(false);
  expect(satisfies(NODE, "^18 || ^20")).toBe(true);
  expect(satisfies(NODE, "^18.17 || >=21")).toBe(false);
});

test("every locked package accepts Node 20 (npm ci warns EBADENGINE otherwise)", () => {
  const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as {
    packages: Record<string, { engines?: { node?: string } }>;
  };
  const refusing = Object.entries(lock.packages)
    .filter(([, p]) => p.engines?.node !== undefined && !satisfies(NODE, p.engines.node))
    .map(([path, p]) => `${path} wants node ${p.engines?.node}`);
  expect(refusing).toEqual([]);
  expect(readFileSync(join(REPO, "README.md"), "utf8")).toContain("Node 20");
});
