// StartService, StopService, ServiceLogs (docs/protocol.md#services, docs/packages.md#services).
import type { Handlers } from "../../protocol/server.ts";
import type { Services } from "../components/services.ts";

export function serviceHandlers(services: Services): Handlers {
  return {
    startService: async ({ name, force }) => {
      await services.start(name, force);
      return { case: "pong", value: {} };
    },
    stopService: async ({ name }) => {
      await services.stop(name);
      return { case: "pong", value: {} };
    },
    serviceLogs: ({ name, lines }) => ({ case: "serviceLogOutput", value: { content: services.logs(name, lines) } }),
  };
}
