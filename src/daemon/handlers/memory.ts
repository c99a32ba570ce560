// ListMemory, GetMemory, SearchMemory, AddMemory and ForgetMemory
// (docs/protocol.md#memory): the agents' memory entries through the runtime's
// store, so what a client changes is what the next run's recall sees.
import { badRequest, conflict, internal, notFound } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import type { MemoryEntry } from "../../runtime/memory/entry.ts";
import { defaultEntryDescription, defaultEntryName, entryNameProblem } from "../../runtime/memory/entry-name.ts";
import type { MemoryStore } from "../../runtime/memory/store.ts";
import type { DaemonState } from "../state.ts";

const SEARCH_DEFAULT_LIMIT = 10;

export function memoryHandlers(state: DaemonState): Handlers {
  const store = (): MemoryStore => {
    const memory = state.host.runtime.memory;
    if (!memory) throw internal("memory is not loaded");
    return memory;
  };
  const all = (memory: MemoryStore): MemoryEntry[] => memory.names().map((n) => memory.get(n)!);
  /** The entry named `name`; 400 for a name no entry can have, else 404 when there is none. */
  const find = (memory: MemoryStore, name: string): MemoryEntry => {
    // An entry loaded from a file is found whatever its name; only then is the name judged.
    const entry = memory.get(name);
    if (entry) return entry;
    const problem = entryNameProblem(name);
    if (problem) throw badRequest(problem);
    const hint = memory.names().length > 0 ? ": see crabtalk memory list" : "";
    throw notFound(`no memory named '${name.trim()}'${hint}`);
  };
  return {
    listMemory: () => ({ case: "memoryList", value: { entries: all(store()) } }),
    getMemory: (req) => ({ case: "memoryEntry", value: find(store(), req.name) }),
    searchMemory: (req) => {
      if (req.query.trim() === "") throw badRequest("the query is empty: give words to look for");
      const entries = store().search(req.query, req.limit === 0 ? SEARCH_DEFAULT_LIMIT : req.limit);
      return { case: "memoryList", value: { entries } };
    },
    addMemory: async (req) => {
      const content = req.content.replace(/\r\n/g, "\n").trim();
      if (content === "") throw badRequest("nothing to remember: the content is empty");
      const name = (req.name ?? defaultEntryName(content)).trim();
      const problem = entryNameProblem(name);
      if (problem) throw badRequest(problem);
      const memory = store();
      const added = await memory.add(name, req.description ?? defaultEntryDescription(content), content);
      if (!added) {
        throw conflict(`a memory named '${name}' exists already: pick another --name, or crabtalk memory forget '${name}' first`);
      }
      return { case: "memoryEntry", value: added };
    },
    forgetMemory: async (req) => {
      const memory = store();
      const entry = find(memory, req.name);
      if (!(await memory.forget(entry.name))) throw notFound(`no memory named '${entry.name}'`);
      return { case: "pong", value: {} };
    },
  };
}
