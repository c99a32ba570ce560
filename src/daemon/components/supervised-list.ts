// <home>/services.toml: the services the daemon supervises itself (no
// service manager), so that the next daemon starts them again.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { parse, stringify } from "smol-toml";
import { writeFileAtomicSync } from "../../base/atomic-file.ts";

export class SupervisedList {
  constructor(private readonly path: string) {}

  names(): string[] {
    if (!existsSync(this.path)) return [];
    try {
      const doc = parse(readFileSync(this.path, "utf8")) as { supervised?: unknown };
      return Array.isArray(doc.supervised) ? doc.supervised.filter((n): n is string => typeof n === "string") : [];
    } catch {
      return []; // a broken file loses only the restart of services
    }
  }

  add(name: string): void {
    const names = this.names();
    if (!names.includes(name)) this.write([...names, name]);
  }

  delete(name: string): void {
    const names = this.names();
    if (names.includes(name)) this.write(names.filter((n) => n !== name));
  }

  private write(names: string[]): void {
    if (names.length === 0) return void rmSync(this.path, { force: true });
    writeFileAtomicSync(this.path, `# Services the daemon runs itself; started again when it starts.\n${stringify({ supervised: names })}\n`);
  }
}
