// crabtalk completions: scripts that the shells accept and that complete real commands.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";

const home = tempHome();
afterAll(() => cleanup(home));

async function script(shell: string): Promise<string> {
  const r = await runCli(["completions", shell], { home });
  expect(r.code).toBe(0);
  const file = join(home, `completion.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

function run(argv: string[]): { code: number; out: string } {
  const p = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

test("bash completes commands, their options and subcommands", async () => {
  const file = await script("bash");
  const complete = (words: string[]) =>
    run([
      "bash",
      "-c",
      `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _crabtalk; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ]);
  const top = complete(["crabtalk", "st"]);
  expect(top.code).toBe(0);
  expect(top.out.split("\n").filter(Boolean).sort()).toEqual(["start", "stats", "status", "stop"]);
  expect(complete(["crabtalk", "send", "--j"]).out.trim()).toBe("--json");
  expect(complete(["crabtalk", "logs", "-"]).out).toContain("--follow");
  expect(complete(["crabtalk", "agents", "cr"]).out.trim()).toBe("create");
});

test("zsh and fish accept their scripts and they name the commands", async () => {
  const zsh = await script("zsh");
  expect(run(["zsh", "-n", zsh])).toEqual({ code: 0, out: "" });
  const fish = await script("fish");
  expect(run(["fish", "--no-execute", fish])).toEqual({ code: 0, out: "" });
  const loaded = run(["fish", "--no-config", "-c", `source ${fish}; complete -C 'crabtalk doc'`]);
  expect(loaded.out).toContain("doctor");
});

test("an unknown shell is refused with the ones it knows", async () => {
  const r = await runCli(["completions", "tcsh"], { home });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("no completions for 'tcsh': use bash, zsh or fish");
});
