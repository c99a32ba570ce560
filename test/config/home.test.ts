import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { parse } from "smol-toml";
import { parseConfigText } from "../../src/config/load.ts";
import { CONFIG_TEMPLATE } from "../../src/config/template.ts";
import { homePaths, resolveHome, scaffoldHome } from "../../src/daemon/home.ts";
import { tempDir } from "./tmp.ts";

function scaffold(home: string): string[] {
  const logged: string[] = [];
  scaffoldHome(home, { warn: (m) => logged.push(m) });
  return logged;
}

const read = (p: string) => fs.readFileSync(p, "utf8");

describe("resolveHome", () => {
  test("CRABTALK_HOME wins when set and non-empty", () => {
    expect(resolveHome({ CRABTALK_HOME: "/srv/crab", HOME: "/home/u" })).toBe("/srv/crab");
  });

  test("falls back to ~/.crabtalk when unset or empty", () => {
    expect(resolveHome({ HOME: "/home/u" })).toBe("/home/u/.crabtalk");
    expect(resolveHome({ CRABTALK_HOME: "", HOME: "/home/u" })).toBe("/home/u/.crabtalk");
    expect(resolveHome({})).toBe(path.join(os.homedir(), ".crabtalk"));
  });

  test("a relative CRABTALK_HOME is made absolute", () => {
    expect(resolveHome({ CRABTALK_HOME: "rel/home" })).toBe(path.resolve("rel/home"));
  });
});

describe("home paths without node:path (a plain absolute home)", () => {
  // Any path made of these pieces: plain names, dots, empty segments, trailing slashes, relative forms.
  const piece = fc.constantFrom("a", "crab", ".", "..", "...", ".hidden", "", "x y", "é", "a\\b");
  const anyPath = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 6 })).map(([abs, parts]) => (abs ? "/" : "") + parts.join("/"));

  test("resolveHome and homePaths agree with node:path for any home", () => {
    fc.assert(
      fc.property(anyPath, anyPath, (crabHome, home) => {
        if (crabHome) expect(resolveHome({ CRABTALK_HOME: crabHome })).toBe(path.resolve(crabHome));
        if (home) expect(resolveHome({ HOME: home })).toBe(path.join(home, ".crabtalk"));
        const abs = path.resolve(crabHome || "/");
        const paths = homePaths(abs);
        expect(paths.socket).toBe(path.join(abs, "run", "crabtalk.sock"));
        expect(paths.localManifest).toBe(path.join(abs, "local", "CrabTalk.toml"));
        expect(paths.usageLedger).toBe(path.join(abs, "usage", "ledger.jsonl"));
        expect(paths.tokenFile("../x")).toBe(path.join(abs, "tokens", "../x.json"));
        if (crabHome.startsWith("/")) expect(homePaths(crabHome).sessions).toBe(path.join(crabHome, "sessions"));
      }),
      { numRuns: 500 },
    );
  });
});

describe("homePaths", () => {
  test("names every path of the home table", () => {
    const p = homePaths("/h");
    expect(p).toMatchObject({
      home: "/h",
      config: "/h/config.toml",
      crabMd: "/h/Crab.md",
      localManifest: "/h/local/CrabTalk.toml",
      localAgents: "/h/local/agents",
      localSkills: "/h/local/skills",
      packages: "/h/packages",
      cacheRepos: "/h/.cache/repos",
      hub: "/h/hub",
      sessions: "/h/sessions",
      memoryIndex: "/h/memory/MEMORY.md",
      memoryEntries: "/h/memory/entries",
      crons: "/h/crons.toml",
      socket: "/h/run/crabtalk.sock",
      portFile: "/h/run/crabtalk.port",
      daemonLog: "/h/logs/daemon.log",
      tokensDir: "/h/tokens",
      history: "/h/history",
    });
    expect(p.componentPort("search")).toBe("/h/run/search.port");
    expect(p.serviceLog("gateway")).toBe("/h/logs/gateway.log");
    expect(p.tokenFile("gh")).toBe("/h/tokens/gh.json");
  });
});

describe("scaffoldHome", () => {
  test("creates the layout and the template config in an empty home", () => {
    const home = path.join(tempDir(), "home");
    const logged = scaffold(home);
    const p = homePaths(home);
    for (const dir of [p.localAgents, p.localSkills, p.packages, p.runDir, p.logsDir, p.sessions]) {
      expect(fs.statSync(dir).isDirectory()).toBe(true);
    }
    expect(fs.statSync(p.runDir).mode & 0o777).toBe(0o700);
    expect(read(p.config)).toBe(CONFIG_TEMPLATE);
    expect(fs.statSync(p.config).mode & 0o777).toBe(0o600);
    expect(parseConfigText(read(p.config)).config.system.tasks.max_concurrent).toBe(4);
    expect(fs.readdirSync(home).sort()).toEqual(["config.toml", "local", "logs", "memory", "packages", "run", "sessions"]);
    for (const dir of [home, p.sessions, p.memoryDir, p.logsDir]) expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(logged).toEqual([]);
  });

  test("is idempotent and never overwrites an existing config", () => {
    const home = tempDir();
    scaffold(home);
    const p = homePaths(home);
    fs.writeFileSync(p.config, '# mine\n[system.crab]\nmodel = "m"\n');
    fs.writeFileSync(path.join(p.localSkills, "keep.txt"), "k");
    const before = fs.readdirSync(home).sort();
    expect(scaffold(home)).toEqual([]);
    expect(fs.readdirSync(home).sort()).toEqual(before);
    expect(read(p.config)).toBe('# mine\n[system.crab]\nmodel = "m"\n');
    expect(read(path.join(p.localSkills, "keep.txt"))).toBe("k");
  });

  test("migrates crab.toml to config.toml", () => {
    const home = tempDir();
    fs.writeFileSync(path.join(home, "crab.toml"), '[system.crab]\nmodel = "old"\n');
    const logged = scaffold(home);
    expect(fs.existsSync(path.join(home, "crab.toml"))).toBe(false);
    expect(parseConfigText(read(homePaths(home).config)).config.system.crab.model).toBe("old");
    expect(logged.some((m) => m.includes("crab.toml"))).toBe(true);
  });

  test("keeps crab.toml when config.toml already exists", () => {
    const home = tempDir();
    fs.writeFileSync(path.join(home, "crab.toml"), "old = 1\n");
    fs.writeFileSync(path.join(home, "config.toml"), "new = 1\n");
    scaffold(home);
    expect(read(path.join(home, "crab.toml"))).toBe("old = 1\n");
    expect(read(path.join(home, "config.toml"))).toBe("new = 1\n");
  });

  test("migrates skills/ and agents/ into local/", () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, "skills", "greet"), { recursive: true });
    fs.writeFileSync(path.join(home, "skills", "greet", "SKILL.md"), "---\nname: greet\n---\nhi");
    fs.mkdirSync(path.join(home, "agents"));
    fs.writeFileSync(path.join(home, "agents", "helper.md"), "You help.");
    scaffold(home);
    const p = homePaths(home);
    expect(read(path.join(p.localSkills, "greet", "SKILL.md"))).toContain("name: greet");
    expect(read(path.join(p.localAgents, "helper.md"))).toBe("You help.");
    expect(fs.existsSync(path.join(home, "skills"))).toBe(false);
    expect(fs.existsSync(path.join(home, "agents"))).toBe(false);
  });

  test("does not move skills/ over an existing local/skills/", () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, "skills"));
    fs.writeFileSync(path.join(home, "skills", "old.md"), "o");
    fs.mkdirSync(path.join(home, "local", "skills"), { recursive: true });
    scaffold(home);
    expect(fs.existsSync(path.join(home, "skills", "old.md"))).toBe(true);
    expect(fs.readdirSync(path.join(home, "local", "skills"))).toEqual([]);
  });

  test("moves [mcps] and [agents] from config.toml to local/CrabTalk.toml, keeping comments", () => {
    const home = tempDir();
    const p = homePaths(home);
    fs.writeFileSync(
      p.config,
      [
        "# my config",
        "[system.crab]",
        'model = "m" # the model',
        "",
        "[mcps.fs]",
        'command = "npx"',
        'env = { TOKEN = "t" }',
        "",
        "[agents.helper]",
        'description = "helps"',
        "",
        "[env]",
        'A = "1"',
        "",
      ].join("\n"),
    );
    const logged = scaffold(home);
    const config = read(p.config);
    expect(config).toContain("# my config");
    expect(config).toContain('model = "m" # the model');
    const cfg = parse(config);
    expect(cfg.mcps).toBeUndefined();
    expect(cfg.agents).toBeUndefined();
    expect(cfg.env).toEqual({ A: "1" });
    const manifest = parse(read(p.localManifest)) as Record<string, Record<string, Record<string, unknown>>>;
    expect(manifest.mcps?.fs).toEqual({ command: "npx", env: { TOKEN: "t" } });
    expect(manifest.agents?.helper).toEqual({ description: "helps" });
    expect(logged.some((m) => m.includes("[mcps]") && m.includes("[agents]"))).toBe(true);
  });

  test("leaves a table in config.toml when the manifest already has a non-empty one", () => {
    const home = tempDir();
    const p = homePaths(home);
    fs.writeFileSync(p.config, '[mcps.a]\ncommand = "from-config"\n[agents.x]\ndescription = "x"\n');
    fs.mkdirSync(p.localDir, { recursive: true });
    fs.writeFileSync(p.localManifest, '# manifest\n[mcps.b]\ncommand = "from-manifest"\n');
    scaffold(home);
    const manifestText = read(p.localManifest);
    expect(manifestText).toStartWith("# manifest\n");
    const manifest = parse(manifestText);
    expect(manifest.mcps).toEqual({ b: { command: "from-manifest" } });
    expect(manifest.agents).toEqual({ x: { description: "x" } });
    const cfg = parse(read(p.config));
    expect(cfg.mcps).toEqual({ a: { command: "from-config" } });
    expect(cfg.agents).toBeUndefined();
  });

  test("moves [disabled] from the manifest to config.toml when config.toml has none", () => {
    const home = tempDir();
    const p = homePaths(home);
    fs.writeFileSync(p.config, '[system.crab]\nmodel = "m"\n');
    fs.mkdirSync(p.localDir, { recursive: true });
    fs.writeFileSync(p.localManifest, '[disabled]\nskills = ["noisy"]\n\n[mcps.b]\ncommand = "c"\n');
    scaffold(home);
    expect(parseConfigText(read(p.config)).config.disabled.skills).toEqual(["noisy"]);
    const manifest = parse(read(p.localManifest));
    expect(manifest.disabled).toBeUndefined();
    expect(manifest.mcps).toEqual({ b: { command: "c" } });
  });

  test("a broken file makes its migration log an error, not throw", () => {
    const home = tempDir();
    const p = homePaths(home);
    fs.writeFileSync(p.config, "this is = = not toml\n");
    const logged = scaffold(home);
    expect(logged.some((m) => m.includes("[mcps]/[agents]") && m.includes("failed"))).toBe(true);
    // The rest of scaffolding still happened, and the broken config was left alone.
    expect(fs.statSync(p.localSkills).isDirectory()).toBe(true);
    expect(read(p.config)).toBe("this is = = not toml\n");
  });
});
