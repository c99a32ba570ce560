// The skill registry (docs/memory.md#discovery): an ordered list; `add` does not
// de-duplicate (discovery checks `contains` first), `upsert` replaces by name.
import type { Skill } from "./skill-file.ts";

export class SkillRegistry {
  private skills: Skill[] = [];

  add(skill: Skill): void {
    this.skills.push(skill);
  }

  /** Replaces the skill of that name in place (keeping its position), else appends. */
  upsert(skill: Skill): void {
    const at = this.skills.findIndex((s) => s.name === skill.name);
    if (at >= 0) this.skills[at] = skill;
    else this.skills.push(skill);
  }

  contains(name: string): boolean {
    return this.skills.some((s) => s.name === name);
  }

  get(name: string): Skill | undefined {
    return this.skills.find((s) => s.name === name);
  }

  /** Every skill in load order (a copy: callers cannot reorder the registry). */
  list(): Skill[] {
    return [...this.skills];
  }

  get size(): number {
    return this.skills.length;
  }
}
