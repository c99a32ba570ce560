// ListSkills (docs/protocol.md#packages-hub-and-skills, docs/memory.md#listing-skills).
import { SourceKind } from "../../protocol/gen/crabtalk_pb.ts";
import type { Handlers } from "../../protocol/server.ts";
import { listSkillInfos } from "../../runtime/skills/discover.ts";
import { skillDirs } from "../skill-dirs.ts";
import type { DaemonState } from "../state.ts";

const SOURCE_KINDS = { local: SourceKind.LOCAL, package: SourceKind.PACKAGE, external: SourceKind.EXTERNAL } as const;

export function skillHandlers(state: DaemonState): Handlers {
  return {
    listSkills: () => ({
      case: "skillList",
      value: {
        skills: listSkillInfos(skillDirs(state.paths), state.config.config.disabled.skills).map((s) => ({
          name: s.name,
          enabled: s.enabled,
          source: s.source,
          sourceKind: SOURCE_KINDS[s.sourceKind],
        })),
      },
    }),
  };
}
