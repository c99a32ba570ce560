// Compiles crabtalk into single native executables.
//   bun run build          → dist/crabtalk for this machine
//   bun run build --all    → dist/crabtalk-<os>-<arch>[.exe] for every target + dist/SHA256SUMS
// --minify and --bytecode start fastest (see the README's build section for the figures).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import pkg from "./package.json" with { type: "json" };

const TARGETS = [
  "bun-linux-x64",
  "bun-linux-x64-baseline",
  "bun-linux-arm64",
  "bun-linux-x64-musl",
  "bun-darwin-x64",
  "bun-darwin-arm64",
  "bun-windows-x64",
] as const;

// A daemon must not pick up .env or bunfig.toml from whatever directory it starts in.
// ESM with code splitting keeps what main.ts imports lazily (the full CLI, the
// daemon) in chunks a short command never loads (issue 11).
const FLAGS = [
  "--compile",
  "--format=esm",
  "--splitting",
  "--minify",
  "--bytecode",
  "--sourcemap=none",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  // Start-up code stays in the interpreter; the daemon returns to the normal
  // policy at its first turn (src/base/jit-policy.ts).
  "--compile-jit-policy=16",
];

// The bytecode a `send` and a daemon's start use, laid out at the front of the
// executable, so a start reads and touches less of it (build/record-order.ts
// records them; `--no-order` builds without, as the recording needs).
const ORDER = ["build/send.order", "build/daemon.order"].filter((file) => existsSync(file));
if (ORDER.length > 0 && !process.argv.includes("--no-order")) FLAGS.push(`--bytecode-order=${ORDER.join(",")}`);

/** The commit this build comes from, as `crabtalk --version` shows it (src/version.ts). */
function gitCommit(): string {
  const git = Bun.spawnSync(["git", "rev-parse", "--short=9", "HEAD"], { stderr: "ignore" });
  const sha = git.exitCode === 0 ? git.stdout.toString().trim() : "";
  if (!sha) return "unknown";
  const dirty = Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=no"], { stderr: "ignore" });
  return dirty.stdout.toString().trim() ? `${sha}-dirty` : sha;
}

const COMMIT = gitCommit();

/** `crabtalk --help` as the full CLI prints it to a pipe, stamped in so the fast path prints it without commander. */
function helpText(): string {
  const help = Bun.spawnSync([process.execPath, "src/main.ts", "--help"], { stderr: "inherit" });
  if (help.exitCode !== 0) throw new Error("crabtalk --help failed");
  return help.stdout.toString();
}

const HELP = helpText();

async function compile(outfile: string, target?: string): Promise<void> {
  const stamp = (name: string, value: string) => `--define=${name}=${JSON.stringify(value)}`;
  const args = [
    process.execPath,
    "build",
    ...FLAGS,
    stamp("CRABTALK_BUILD_VERSION", process.env.CRABTALK_VERSION || pkg.version),
    stamp("CRABTALK_BUILD_COMMIT", COMMIT),
    stamp("CRABTALK_BUILD_TARGET", target ? target.replace(/^bun-/, "") : ""),
    stamp("CRABTALK_BUILD_HELP", HELP),
    "src/main.ts",
    "--outfile",
    outfile,
  ];
  if (target) args.push(`--target=${target}`);
  const proc = Bun.spawn(args, { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`compile failed for ${target ?? "this machine"}`);
}

function outName(target: string): string {
  const name = target.replace(/^bun-/, "crabtalk-");
  return `dist/${name}${target.includes("windows") ? ".exe" : ""}`;
}

mkdirSync("dist", { recursive: true });
if (process.argv.includes("--all")) {
  const sums: string[] = [];
  for (const target of TARGETS) {
    const out = outName(target);
    await compile(out, target);
    const digest = new Bun.CryptoHasher("sha256").update(readFileSync(out)).digest("hex");
    sums.push(`${digest}  ${basename(out)}`);
  }
  writeFileSync("dist/SHA256SUMS", sums.join("\n") + "\n");
  console.log(`built ${TARGETS.length} targets; checksums in dist/SHA256SUMS`);
} else {
  await compile("dist/crabtalk");
  console.log("built dist/crabtalk");
}
