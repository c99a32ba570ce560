// install.sh for real, under dash and busybox sh, against a local release
// server: platform detection, checksums, atomic install and upgrade, every
// failure leaving nothing behind, and the PATH line `uninstall` takes out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, cleanup } from "../support/daemon.ts";
import { compiledBinary } from "../support/binary.ts";
import { fakeBinary, releaseServer, sha256 } from "../support/release-server.ts";
import { type CliResult, runCommand } from "../support/cli.ts";
import { readableByAnyone } from "../support/other-user.ts";
import { PATH_LINE_MARKER } from "../../src/cli/shell-profile.ts";

const SCRIPT = join(REPO, "install.sh");
const root = mkdtempSync(join(tmpdir(), "crabtalk-install-"));
const server = releaseServer(join(root, "www"));
const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
let dirCount = 0;

/** A fresh user: its own HOME, install dir inside it. */
function user() {
  const home = join(root, `user${++dirCount}`);
  mkdirSync(home, { recursive: true });
  return { home, dir: join(home, ".crabtalk/bin") };
}

async function install(opts: {
  shell?: string[];
  args?: string[];
  home: string;
  env?: Record<string, string>;
  path?: string;
  /** Runs as this uid (and the same gid): another OS user. */
  as?: number;
}): Promise<CliResult> {
  // Resolved here: the child's PATH may not hold the shell itself.
  const shell = (opts.shell ?? ["dash"]).map((word, i) => (i === 0 ? Bun.which(word)! : word));
  const prefix = opts.as ? [Bun.which("setpriv")!, `--reuid=${opts.as}`, `--regid=${opts.as}`, "--clear-groups"] : [];
  // Another user runs a copy it can read: the checkout may be 0700.
  const shared = opts.as ? readableByAnyone([SCRIPT]) : undefined;
  const script = shared ? join(shared, "install.sh") : SCRIPT;
  try {
    return await runCommand([...prefix, ...shell, script, ...(opts.args ?? [])], {
      cwd: shared,
      env: {
        HOME: opts.home,
        PATH: opts.path ?? SYSTEM_PATH,
        SHELL: "/bin/sh",
        CRABTALK_RELEASES_URL: server.url,
        ...opts.env,
      },
    });
  } finally {
    if (shared) cleanup(shared);
  }
}

/** A directory of commands that stand in for system ones (uname, sysctl, ldd…), put first on PATH. */
function fakeCommands(scripts: Record<string, string>): string {
  const dir = join(root, `fake${++dirCount}`);
  mkdirSync(dir);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const fakeUname = (os: string, arch: string) => `case "$1" in -s) echo ${os};; -m) echo ${arch};; *) echo ${os};; esac`;

/** Busybox applets only (wget, sha256sum, awk… but no curl), minus `without`, plus `extra` real tools. */
function busyboxPath(without: string[] = [], extra: string[] = []): string {
  const dir = join(root, `busybox${++dirCount}`);
  mkdirSync(dir);
  const applets = Bun.spawnSync(["busybox", "--list"]).stdout.toString().split("\n").filter(Boolean);
  for (const applet of applets) {
    if (!without.includes(applet)) symlinkSync(Bun.which("busybox")!, join(dir, applet));
  }
  for (const tool of extra) symlinkSync(Bun.which(tool)!, join(dir, tool));
  return dir;
}

/** The install dir holds the binary and nothing else (no temp files). */
function installed(dir: string): string {
  expect(readdirSync(dir)).toEqual(["crabtalk"]);
  const path = join(dir, "crabtalk");
  expect(statSync(path).mode & 0o777).toBe(0o755);
  return readFileSync(path, "utf8");
}

/** A failure: non-zero, one line on stderr naming what to do, nothing at the install path. */
function failedCleanly(r: CliResult, dir: string, says: string): void {
  expect(r.code).not.toBe(0);
  expect(r.stderr).toStartWith("crabtalk install: ");
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain(says);
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
}

beforeAll(() => {
  server.publish("latest", {
    "crabtalk-linux-x64": fakeBinary("0.2.0"),
    "crabtalk-linux-x64-baseline": fakeBinary("0.2.0-baseline"),
    "crabtalk-linux-x64-musl": fakeBinary("0.2.0-musl"),
    "crabtalk-linux-arm64": fakeBinary("0.2.0-arm64"),
    "crabtalk-darwin-arm64": fakeBinary("0.2.0-darwin-arm64"),
    "crabtalk-darwin-x64": fakeBinary("0.2.0-darwin-x64"),
  });
  server.publish("v0.1.0", { "crabtalk-linux-x64": fakeBinary("0.1.0") });
  server.publish("v0.0.9", { "crabtalk-linux-x64": fakeBinary("0.0.9") }, { "crabtalk-linux-x64": sha256("something else") });
});
afterAll(() => {
  server.stop();
  cleanup(root);
});

describe("a fresh install", () => {
  test("under dash with curl: the latest build for this machine, verified, 0755, and a PATH hint", async () => {
    const u = user();
    const r = await install({ home: u.home });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(installed(u.dir)).toBe(fakeBinary("0.2.0"));
    // ~/.crabtalk is also the daemon's home: created private.
    expect(statSync(join(u.home, ".crabtalk")).mode & 0o777).toBe(0o700);
    expect(server.requests.slice(-2)).toEqual(["/latest/download/SHA256SUMS", "/latest/download/crabtalk-linux-x64"]);
    expect(r.stdout).toContain(`Installed crabtalk 0.2.0 (fake, test) to ${u.dir}/crabtalk`);
    expect(r.stdout).toContain(`${u.dir} is not on your PATH`);
    expect(r.stdout).toContain(`export PATH="${u.dir}:$PATH"`);
  });

  test("under busybox sh with only busybox's wget and sha256sum (no curl)", async () => {
    const u = user();
    const r = await install({ shell: ["busybox", "sh"], home: u.home, path: busyboxPath() });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(installed(u.dir)).toBe(fakeBinary("0.2.0"));
  });

  test("verifies with openssl when there is no sha256sum or shasum", async () => {
    const u = user();
    const r = await install({ shell: ["busybox", "sh"], home: u.home, path: busyboxPath(["sha256sum"], ["openssl"]) });
    expect(r.stderr).toBe("");
    expect(installed(u.dir)).toBe(fakeBinary("0.2.0"));
  });

  test("--version X and CRABTALK_VERSION fetch that release's tag; CRABTALK_INSTALL_DIR picks the directory", async () => {
    const u = user();
    const dir = join(u.home, "my bin");
    const r = await install({ home: u.home, args: ["--version", "v0.1.0"], env: { CRABTALK_INSTALL_DIR: dir } });
    expect(r.code).toBe(0);
    expect(installed(dir)).toBe(fakeBinary("0.1.0"));
    expect(server.requests.at(-1)).toBe("/download/v0.1.0/crabtalk-linux-x64");
    const again = user();
    const viaEnv = await install({ home: again.home, env: { CRABTALK_VERSION: "0.1.0" } });
    expect(viaEnv.code).toBe(0);
    expect(installed(again.dir)).toBe(fakeBinary("0.1.0"));
  });

  test("CRABTALK_DOWNLOAD_URL is a directory holding the assets and SHA256SUMS", async () => {
    const u = user();
    const r = await install({ home: u.home, env: { CRABTALK_DOWNLOAD_URL: `${server.url}/download/v0.1.0/` } });
    expect(r.code).toBe(0);
    expect(installed(u.dir)).toBe(fakeBinary("0.1.0"));
  });

  test("the real compiled crabtalk installs, prints its stamped version, and a second run finds it already up to date", async () => {
    const binary = readFileSync(await compiledBinary());
    server.publish("v9.9.9", { "crabtalk-linux-x64": binary, "crabtalk-linux-x64-baseline": binary });
    const u = user();
    const env = { CRABTALK_DOWNLOAD_URL: `${server.url}/download/v9.9.9`, CRABTALK_INSTALL_DIR: join(u.home, "bin") };
    const r = await install({ home: u.home, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const installedPath = join(u.home, "bin/crabtalk");
    const version = Bun.spawnSync([installedPath, "--version"]).stdout.toString().trim();
    expect(version).toMatch(/^crabtalk \d+\.\d+\.\d+ \([^,]+, linux-x64\)$/);
    expect(r.stdout).toContain(`Installed ${version} to ${installedPath}`);
    expect(sha256(readFileSync(installedPath))).toBe(sha256(binary));

    const again = await install({ home: u.home, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`crabtalk is already up to date: ${version} at ${installedPath}`);
    expect(again.stdout).not.toContain("Upgraded");
    // The installed binary is the release's build: it was not downloaded again.
    expect(server.requests.at(-1)).toBe("/download/v9.9.9/SHA256SUMS");
    expect(readdirSync(join(u.home, "bin"))).toEqual(["crabtalk"]);
  }, 120_000);
});

describe("platform detection", () => {
  const picks = async (scripts: Record<string, string>, env: Record<string, string> = {}) => {
    const u = user();
    const r = await install({ home: u.home, path: `${fakeCommands(scripts)}:${SYSTEM_PATH}`, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return server.requests.at(-1)!.replace("/latest/download/", "");
  };
  const noMusl = "echo 'ldd (GNU libc) 2.36'";

  test("Linux x64 with AVX2 gets the default build, without AVX2 the -baseline build", async () => {
    const withAvx2 = join(root, "cpuinfo-avx2");
    const withoutAvx2 = join(root, "cpuinfo-old");
    writeFileSync(withAvx2, "flags\t\t: fpu sse2 avx avx2 bmi2\n");
    writeFileSync(withoutAvx2, "flags\t\t: fpu sse2 sse4_2 avx\n");
    const fakes = { uname: fakeUname("Linux", "x86_64"), ldd: noMusl };
    expect(await picks(fakes, { CRABTALK_TEST_CPUINFO: withAvx2 })).toBe("crabtalk-linux-x64");
    expect(await picks(fakes, { CRABTALK_TEST_CPUINFO: withoutAvx2 })).toBe("crabtalk-linux-x64-baseline");
  });

  test("musl libc (Alpine) gets the -musl build", async () => {
    const musl = "echo 'musl libc (x86_64)' >&2; exit 1";
    expect(await picks({ uname: fakeUname("Linux", "x86_64"), ldd: musl })).toBe("crabtalk-linux-x64-musl");
  });

  test("Linux aarch64 gets linux-arm64", async () => {
    expect(await picks({ uname: fakeUname("Linux", "aarch64"), ldd: noMusl })).toBe("crabtalk-linux-arm64");
  });

  test("macOS: arm64 natively, and under Rosetta 2 too; an Intel Mac gets darwin-x64", async () => {
    expect(await picks({ uname: fakeUname("Darwin", "arm64") })).toBe("crabtalk-darwin-arm64");
    const rosetta = { uname: fakeUname("Darwin", "x86_64"), sysctl: `[ "$2" = sysctl.proc_translated ] && echo 1` };
    expect(await picks(rosetta)).toBe("crabtalk-darwin-arm64");
    const intel = { uname: fakeUname("Darwin", "x86_64"), sysctl: "exit 1" };
    expect(await picks(intel)).toBe("crabtalk-darwin-x64");
  });

  test("Windows shells are sent to the .exe; unknown systems and CPUs are refused", async () => {
    for (const [os, arch, says] of [
      ["MINGW64_NT-10.0", "x86_64", "crabtalk-windows-x64.exe"],
      ["SunOS", "i86pc", "no crabtalk build for SunOS"],
      ["Linux", "riscv64", "no crabtalk build for riscv64 CPUs on linux"],
    ] as const) {
      const u = user();
      const r = await install({ home: u.home, path: `${fakeCommands({ uname: fakeUname(os, arch) })}:${SYSTEM_PATH}` });
      failedCleanly(r, u.dir, says);
      expect(existsSync(u.dir)).toBe(false);
    }
  });
});

describe("failures leave nothing behind", () => {
  test("checksum mismatch: refused, nothing installed, and an existing binary is untouched", async () => {
    const u = user();
    const r = await install({ home: u.home, args: ["--version", "0.0.9"] });
    failedCleanly(r, u.dir, "checksum mismatch for crabtalk-linux-x64");
    expect(existsSync(u.dir)).toBe(false);
    // Nor the ~/.crabtalk the installer made for it.
    expect(readdirSync(u.home)).toEqual([]);

    expect((await install({ home: u.home, args: ["--version", "0.1.0"] })).code).toBe(0);
    const upgrade = await install({ home: u.home, args: ["--version", "0.0.9"] });
    expect(upgrade.code).toBe(1);
    expect(installed(u.dir)).toBe(fakeBinary("0.1.0"));
  });

  test("a release that does not exist (HTTP 404) names the version", async () => {
    const u = user();
    const r = await install({ home: u.home, args: ["--version", "7.7.7"] });
    failedCleanly(r, u.dir, "(curl: (22) The requested URL returned error: 404): check your connection, and that release 7.7.7 exists");
  });

  test("a release without this platform's build says which build is missing", async () => {
    const u = user();
    const r = await install({ home: u.home, args: ["--version", "0.1.0"], env: { CRABTALK_INSTALL_TARGET: "linux-arm64" } });
    failedCleanly(r, u.dir, "SHA256SUMS at");
    expect(r.stderr).toContain("lists no crabtalk-linux-arm64");
  });

  test("a server that dies mid-way (connection refused) is a clear error under wget too", async () => {
    const u = user();
    const r = await install({
      shell: ["busybox", "sh"],
      home: u.home,
      path: busyboxPath(),
      env: { CRABTALK_DOWNLOAD_URL: "http://127.0.0.1:9/nothing" },
    });
    failedCleanly(r, u.dir, "could not download http://127.0.0.1:9/nothing/SHA256SUMS");
  });

  test("a build that does not run here (wrong CPU, corrupt upload) is not installed", async () => {
    server.publish("v0.0.8", { "crabtalk-linux-x64": "\x7fELF not really a program\n" });
    const u = user();
    const r = await install({ home: u.home, args: ["--version", "0.0.8"] });
    failedCleanly(r, u.dir, "the downloaded crabtalk-linux-x64 does not run on this machine");
  });

  test("Ctrl-C mid-download: no partial file, the old binary untouched; a fresh install leaves no ~/.crabtalk", async () => {
    const stalling = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const name = new URL(req.url).pathname.split("/").pop();
        if (name === "SHA256SUMS") return new Response(`${sha256("x")}  crabtalk-linux-x64\n`);
        // Half a binary, then silence: the installer is still downloading when it is killed.
        return new Response(new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(64 * 1024).fill(1)) }), {
          headers: { "content-length": String(1024 * 1024) },
        });
      },
    });
    try {
      for (const fresh of [false, true]) {
        const u = user();
        if (!fresh) expect((await install({ home: u.home, args: ["--version", "0.1.0"] })).code).toBe(0);
        // Its own process group, so Ctrl-C can be sent the way a terminal sends it: to curl too.
        const proc = Bun.spawn([Bun.which("setsid")!, Bun.which("dash")!, SCRIPT], {
          env: { HOME: u.home, PATH: SYSTEM_PATH, CRABTALK_DOWNLOAD_URL: `http://127.0.0.1:${stalling.port}` },
          stdout: "pipe",
          stderr: "pipe",
        });
        const partial = () => (existsSync(u.dir) ? readdirSync(u.dir).find((f) => f.endsWith(".bin")) : undefined);
        const deadline = Date.now() + 20_000;
        while (!partial() || statSync(join(u.dir, partial()!)).size === 0) {
          if (Date.now() > deadline) throw new Error("the installer never started writing the download");
          await Bun.sleep(20);
        }
        process.kill(-proc.pid, "SIGINT");
        expect(await proc.exited).not.toBe(0);
        if (fresh) expect(readdirSync(u.home)).toEqual([]);
        else expect(installed(u.dir)).toBe(fakeBinary("0.1.0"));
      }
    } finally {
      stalling.stop(true);
    }
  });

  test("neither curl nor wget", async () => {
    const u = user();
    const r = await install({ shell: ["busybox", "sh"], home: u.home, path: busyboxPath(["wget"]) });
    failedCleanly(r, u.dir, "neither curl nor wget is installed");
  });

  test("no write permission in the install directory (as another user)", async () => {
    const u = user();
    const locked = join(u.home, "locked");
    mkdirSync(locked, { mode: 0o755 });
    chmodSync(u.home, 0o755);
    chmodSync(root, 0o755);
    const r = await install({ home: u.home, as: 65534, env: { CRABTALK_INSTALL_DIR: locked } });
    failedCleanly(r, locked, `cannot write to ${locked}`);
    const missing = join(locked, "sub");
    const r2 = await install({ home: u.home, as: 65534, env: { CRABTALK_INSTALL_DIR: missing } });
    failedCleanly(r2, missing, `cannot create ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });

  test("bad options get one line and change nothing", async () => {
    const u = user();
    failedCleanly(await install({ home: u.home, args: ["--frobnicate"] }), u.dir, "unknown option '--frobnicate'");
    failedCleanly(await install({ home: u.home, args: ["--version"] }), u.dir, "--version needs a value");
  });

  test("--help explains the options and installs nothing", async () => {
    const u = user();
    const r = await install({ home: u.home, args: ["--help"] });
    expect(r.code).toBe(0);
    for (const word of ["--version", "--add-to-path", "CRABTALK_INSTALL_DIR", "CRABTALK_DOWNLOAD_URL"]) {
      expect(r.stdout).toContain(word);
    }
    expect(existsSync(u.dir)).toBe(false);
  });
});

describe("upgrades", () => {
  test("re-installing the installed version says it is already up to date and leaves the binary", async () => {
    const u = user();
    expect((await install({ home: u.home, args: ["--version", "0.1.0"] })).code).toBe(0);
    const before = statSync(join(u.dir, "crabtalk")).mtimeMs;
    const r = await install({ home: u.home, args: ["--version", "0.1.0"] });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`crabtalk is already up to date: crabtalk 0.1.0 (fake, test) at ${u.dir}/crabtalk`);
    expect(r.stdout).not.toContain("Upgraded");
    expect(server.requests.at(-1)).toBe("/download/v0.1.0/SHA256SUMS");
    expect(installed(u.dir)).toBe(fakeBinary("0.1.0"));
    expect(statSync(join(u.dir, "crabtalk")).mtimeMs).toBe(before);
  });

  test("re-running upgrades in place while the old binary runs, and says to restart", async () => {
    const u = user();
    expect((await install({ home: u.home, args: ["--version", "0.1.0"] })).code).toBe(0);
    const running = Bun.spawn([join(u.dir, "crabtalk"), "daemon"], { stdout: "ignore" });
    try {
      const r = await install({ home: u.home });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Upgraded ${u.dir}/crabtalk: crabtalk 0.1.0 (fake, test) -> crabtalk 0.2.0 (fake, test)`);
      expect(r.stdout).toContain("crabtalk restart");
      expect(installed(u.dir)).toBe(fakeBinary("0.2.0"));
      expect(running.exitCode).toBeNull();
    } finally {
      running.kill();
    }
  });
});

describe("--add-to-path", () => {
  test("the marker matches what `crabtalk uninstall` looks for", () => {
    expect(readFileSync(SCRIPT, "utf8")).toContain(`MARKER="${PATH_LINE_MARKER}"`);
  });

  test("zsh honours $ZDOTDIR; the line is added once and puts the directory on zsh's PATH", async () => {
    const u = user();
    const zdot = join(u.home, "zdot");
    const env = { SHELL: "/usr/bin/zsh", ZDOTDIR: zdot };
    expect((await install({ home: u.home, args: ["--add-to-path"], env })).code).toBe(0);
    const second = await install({ home: u.home, args: ["--add-to-path"], env });
    expect(second.stdout).toContain("already adds");
    const rc = readFileSync(join(zdot, ".zshrc"), "utf8");
    expect(rc.split("\n").filter((l) => l.includes(PATH_LINE_MARKER))).toHaveLength(1);
    const zsh = Bun.spawnSync(["zsh", "-c", `source ${join(zdot, ".zshrc")}; whence -p crabtalk`], {
      env: { HOME: u.home, PATH: SYSTEM_PATH },
    });
    expect(zsh.stdout.toString().trim()).toBe(join(u.dir, "crabtalk"));
  });

  test("bash gets ~/.bashrc, fish its config.fish, and each shell then finds crabtalk", async () => {
    for (const [shell, rc, find] of [
      ["/bin/bash", ".bashrc", ["bash", "-c", "source ~/.bashrc; command -v crabtalk"]],
      ["/usr/bin/fish", ".config/fish/config.fish", ["fish", "-c", "command -v crabtalk"]],
    ] as const) {
      const u = user();
      const r = await install({ home: u.home, args: ["--add-to-path"], env: { SHELL: shell } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`added ${u.dir} in ${join(u.home, rc)}`);
      const found = Bun.spawnSync([...find], { env: { HOME: u.home, PATH: SYSTEM_PATH } });
      expect(found.stdout.toString().trim()).toBe(join(u.dir, "crabtalk"));
    }
  });

  test("a directory already on PATH is left alone, and --add-to-path says so", async () => {
    const u = user();
    const r = await install({
      home: u.home,
      args: ["--add-to-path"],
      path: `${u.dir}:${SYSTEM_PATH}`,
      env: { SHELL: "/bin/bash" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`PATH: ${u.dir} is already on your PATH; nothing added`);
    expect(existsSync(join(u.home, ".bashrc"))).toBe(false);
    const plain = await install({ home: u.home, path: `${u.dir}:${SYSTEM_PATH}` });
    expect(plain.stdout).not.toContain("PATH");
  });
});
