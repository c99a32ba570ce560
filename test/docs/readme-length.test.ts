// The README is what a newcomer reads first: what crabtalk is, how to install
// and start it, the CLI, a minimal config, and links into docs/. Everything
// longer (benchmarks, security detail, protocol) belongs in docs/, so the
// README is held to a length read in a few minutes (issue 20).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/daemon.ts";

const MAX_LINES = 250;

test(`README.md is at most ${MAX_LINES} lines, and opens with the two commands`, () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const lines = readme.replace(/\n$/, "").split("\n").length;
  expect({ lines, fits: lines <= MAX_LINES }).toEqual({ lines, fits: true });
  // The first code block is the two commands CI runs the second of (.ci/run runs `npm test`).
  const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(
    first
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("#")[0].trim()),
  ).toEqual(["npm ci && npm start", "npm ci && npm test"]);
});
