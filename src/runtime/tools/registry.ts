// The tool registry: the tools (define.ts) by name, their JSON Schemas for the
// model, and dispatch, which validates the model's arguments and never throws:
// every failure becomes an error result (docs/tools.md#conventions).
import { z } from "zod";
import type { ToolCall, ToolSchema } from "../../model/types.ts";
import type { ToolOutcome } from "../../agent/events.ts";
import type { Tool, ToolCallContext } from "./define.ts";

export class ToolRegistry {
  private tools = new Map<string, Tool<never>>();
  /** JSON Schemas are computed once per tool, not once per model round. */
  private schemaCache = new Map<string, ToolSchema>();
  /** The last list handed out per whitelist (by its identity: an agent's own array); cleared by any change. */
  private listCache = new WeakMap<string[], readonly ToolSchema[]>();
  private readonly everyTool: string[] = [];

  /** Registers or replaces a tool of that name. */
  register<I>(tool: Tool<I>): void {
    this.tools.set(tool.name, tool as unknown as Tool<never>);
    this.schemaCache.delete(tool.name);
    this.listCache = new WeakMap();
  }

  remove(name: string): boolean {
    this.schemaCache.delete(name);
    this.listCache = new WeakMap();
    return this.tools.delete(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /**
   * Schemas for the model, sorted by name; `only` (when non-empty) restricts
   * to those names that exist. The same list (not to be changed) comes back
   * for the same `only` array until a tool is registered or removed: one run
   * asks for it every model round.
   */
  schemas(only: string[] = this.everyTool): readonly ToolSchema[] {
    let list = this.listCache.get(only);
    if (!list) {
      list = this.pick(only);
      this.listCache.set(only, list);
    }
    return list;
  }

  private pick(only: string[]): ToolSchema[] {
    const picked = (only.length > 0 ? only.filter((n) => this.tools.has(n)) : [...this.tools.keys()]).sort();
    return picked.map((name) => {
      let schema = this.schemaCache.get(name);
      if (!schema) {
        const tool = this.tools.get(name)!;
        const { $schema: _drop, ...parameters } = z.toJSONSchema(tool.input) as Record<string, unknown>;
        schema = { name, description: tool.description, parameters };
        this.schemaCache.set(name, schema);
      }
      return schema;
    });
  }

  async dispatch(call: ToolCall, ctx: ToolCallContext): Promise<ToolOutcome> {
    const tool = this.tools.get(call.name);
    if (!tool) return { output: `tool not available: ${call.name}`, isError: true };
    let raw: unknown;
    try {
      raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch (err) {
      return { output: `invalid arguments: not JSON (${(err as Error).message})`, isError: true };
    }
    const parsed = tool.input.safeParse(raw);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
      return { output: `invalid arguments: ${detail}`, isError: true };
    }
    try {
      const result = await tool.run(parsed.data as never, ctx);
      return typeof result === "string" ? { output: result, isError: false } : result;
    } catch (err) {
      return { output: `tool '${call.name}' failed: ${(err as Error).message}`, isError: true };
    }
  }
}
