// CreateCron, DeleteCron, ListCrons (docs/protocol.md#cron, docs/cron.md).
import { basename } from "node:path";
import { badRequest, notFound } from "../../protocol/errors.ts";
import type { Handlers } from "../../protocol/server.ts";
import { isValidTime } from "../cron/quiet.ts";
import { ScheduleError, validateSchedule } from "../cron/schedule.ts";
import type { CronEntry } from "../cron/store.ts";
import { listSkillInfos } from "../../runtime/skills/discover.ts";
import { didYouMean } from "../../config/schema-keys.ts";
import { skillDirs } from "../skill-dirs.ts";
import type { DaemonState } from "../state.ts";
import { resolveWorkingDir } from "../../config/working-dir.ts";

const info = (e: CronEntry) => ({
  id: e.id,
  schedule: e.schedule,
  skill: e.skill,
  session: e.session,
  quietStart: e.quietStart ?? "",
  quietEnd: e.quietEnd ?? "",
  once: e.once,
  cwd: e.cwd ?? "",
});

export function cronHandlers(state: DaemonState): Handlers {
  return {
    createCron: (req) => {
      try {
        validateSchedule(req.schedule);
      } catch (err) {
        if (err instanceof ScheduleError) throw badRequest(err.message);
        throw err;
      }
      if (!req.skill.trim()) throw badRequest("a cron needs a skill to fire");
      const skills = listSkillInfos(skillDirs(state.paths), state.config.config.disabled.skills).map((s) => s.name);
      const skill = req.skill.replace(/^\//, "");
      if (!skills.includes(skill)) {
        throw badRequest(`skill '${skill}' not found${didYouMean(skill, skills)}: see crabtalk skills`);
      }
      for (const t of [req.quietStart, req.quietEnd]) {
        if (t !== undefined && t !== "" && !isValidTime(t)) throw badRequest(`invalid quiet time '${t}': use HH:MM`);
      }
      const session = state.host.sessions.get(req.session);
      if (!session) throw notFound(`session ${req.session} not found`);
      // The entry keeps a directory of its own: the one asked for, else the one the session's client named.
      let cwd = session.cwd;
      if (req.cwd) {
        try {
          cwd = resolveWorkingDir(req.cwd, state.env, "cwd");
        } catch (err) {
          throw badRequest((err as Error).message);
        }
      }
      const entry = state.crons.create({
        schedule: req.schedule,
        skill: req.skill,
        session: req.session,
        quietStart: req.quietStart || undefined,
        quietEnd: req.quietEnd || undefined,
        once: req.once,
        agent: session.agent,
        sender: session.createdBy,
        file: basename(session.filePath),
        cwd,
      });
      return { case: "cronInfo", value: info(entry) };
    },

    deleteCron: ({ id }) => {
      if (!state.crons.delete(id)) throw notFound(`cron ${id} not found`);
      return { case: "pong", value: {} };
    },

    listCrons: () => ({ case: "cronList", value: { crons: state.crons.list().map(info) } }),
  };
}
