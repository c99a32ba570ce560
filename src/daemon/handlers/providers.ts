// Providers and models (docs/protocol.md#providers-and-models, docs/providers.md#presets): list them,
// change one provider table or the active model, switch resources on and off.
// Every change is a targeted edit of config.toml, then a reload.
import { notFound, badRequest } from "../../protocol/errors.ts";
import { ResourceKind } from "../../protocol/gen/crabtalk_pb.ts";
import { wireKind } from "../../protocol/provider-kind.ts";
import type { Handlers } from "../../protocol/server.ts";
import { contextLimit } from "../../model/context-limit.ts";
import { PROVIDER_PRESETS } from "../../base/provider-kinds.ts";
import { ConfigError } from "../../config/error.ts";
import { validateConfig } from "../../config/load.ts";
import { redactProvider, restoreProviderSecrets } from "../../config/redact.ts";
import { setKey, setTable } from "../../config/table-edit.ts";
import { changeConfig, parseJsonObject } from "../config-change.ts";
import { didYouMean } from "../../config/schema-keys.ts";
import { configuredMcpNames } from "../mcp-servers.ts";
import { listSkillInfos } from "../../runtime/skills/discover.ts";
import { skillDirs } from "../skill-dirs.ts";
import type { DaemonState } from "../state.ts";
import { providerKeyStatus } from "../../config/provider-keys.ts";

type Table = Record<string, unknown>;

const DISABLED_LIST: Partial<Record<ResourceKind, "providers" | "mcps" | "skills">> = {
  [ResourceKind.PROVIDER]: "providers",
  [ResourceKind.MCP]: "mcps",
  [ResourceKind.SKILL]: "skills",
};

export function providerHandlers(state: DaemonState): Handlers {
  const rawProviders = () => (state.config.raw.provider ?? {}) as Record<string, Table>;
  const activeModel = () => state.config.config.system.crab.model;
  const disabled = () => state.config.config.disabled;

  /** docs/protocol.md#providers-and-models: the definition as JSON, secrets redacted, `kind` left out when it is openai. */
  const info = (name: string) => {
    const raw = rawProviders()[name] ?? {};
    const parsed = state.config.config.provider[name];
    const { standard: _alias, ...table } = redactProvider(raw);
    if (parsed?.kind === "openai") delete table.kind;
    else if (parsed) table.kind = parsed.kind;
    const active = activeModel();
    return {
      name,
      active: active !== undefined && (parsed?.models.includes(active) ?? false),
      config: JSON.stringify(table),
      enabled: !disabled().providers.includes(name),
      keys: parsed ? providerKeyStatus(parsed, state.env, state.config.config.env) : [],
    };
  };

  /** Names a [disabled] list may name: configured providers, MCP servers, discoverable skills. */
  const knownNames = (list: "providers" | "mcps" | "skills"): string[] => {
    if (list === "providers") return Object.keys(rawProviders());
    if (list === "mcps") return configuredMcpNames(state.paths);
    return listSkillInfos(skillDirs(state.paths), []).map((s) => s.name);
  };

  return {
    listProviders: () => ({ case: "providerList", value: { providers: Object.keys(rawProviders()).map(info) } }),

    setProvider: async ({ name, config }) => {
      if (!name.trim()) throw badRequest("a provider needs a name");
      const incoming = parseJsonObject(config, "provider");
      let table: Table;
      try {
        table = restoreProviderSecrets(name, incoming, rawProviders()[name]);
        // Validated with every other provider (duplicate models, per-kind keys).
        validateConfig({ ...state.config.raw, provider: { ...rawProviders(), [name]: table } }, { source: "provider" });
      } catch (err) {
        if (err instanceof ConfigError) throw badRequest(err.message);
        throw err;
      }
      // The first provider's first model becomes active, so that runs work at once.
      const served = (m: string | undefined) =>
        m !== undefined && Object.entries(state.config.config.provider).some(([n, p]) => n !== name && p.models.includes(m));
      const models = table.models as string[];
      const active = activeModel();
      const makeActive = !served(active) && !(active && models.includes(active)) ? models[0] : undefined;
      await changeConfig(
        state,
        (text) => {
          const next = setTable(text, ["provider", name], table);
          return makeActive ? setKey(next, ["system", "crab"], "model", makeActive) : next;
        },
        "SetProvider",
      );
      if (makeActive) state.log.info("active model set", { model: makeActive, provider: name });
      return { case: "providerList", value: { providers: [info(name)] } };
    },

    deleteProvider: async ({ name }) => {
      if (!Object.hasOwn(rawProviders(), name)) throw notFound(`provider '${name}' not found`);
      const active = activeModel();
      if (active && state.config.config.provider[name]?.models.includes(active)) {
        throw badRequest(`cannot delete provider '${name}': it serves the active model '${active}'; choose another with crabtalk models use MODEL first`);
      }
      await changeConfig(state, (text) => setTable(text, ["provider", name], undefined), "DeleteProvider");
      return { case: "pong", value: {} };
    },

    setActiveModel: async ({ model }) => {
      const known = Object.values(state.config.config.provider).some((p) => p.models.includes(model));
      if (!known) throw notFound(`model '${model}' not found in any provider`);
      await changeConfig(state, (text) => setKey(text, ["system", "crab"], "model", model), "SetActiveModel");
      return { case: "pong", value: {} };
    },

    listProviderPresets: () => ({
      case: "providerPresetList",
      value: {
        presets: PROVIDER_PRESETS.map((p) => ({
          name: p.name,
          kind: wireKind(p.kind),
          baseUrl: p.baseUrl,
          fixedBaseUrl: p.fixedBaseUrl,
          defaultModel: p.defaultModel,
        })),
      },
    }),

    // Configured providers; with none, the ones detected from the environment.
    listModels: () => {
      const configured = Object.entries(state.config.config.provider).flatMap(([provider, p]) =>
        p.models.map((name) => ({ name, provider, kind: p.kind, enabled: !disabled().providers.includes(provider), limits: p.context_limits })),
      );
      const listed = configured.length > 0 ? configured : state.host.runtime.models.models().map((m) => ({ ...m, enabled: true, limits: undefined }));
      const active = state.host.runtime.activeModel;
      return {
        case: "modelList",
        value: {
          models: listed.map((m) => ({
            name: m.name,
            provider: m.provider,
            active: m.name === active,
            enabled: m.enabled,
            kind: wireKind(m.kind),
            contextLimit: contextLimit(m.name, m.limits),
          })),
        },
      };
    },

    setEnabled: async ({ kind, name, enabled }) => {
      const list = DISABLED_LIST[kind];
      if (!list) throw badRequest(`unknown resource kind ${kind}: expected PROVIDER, MCP or SKILL`);
      const active = activeModel();
      if (list === "providers" && !enabled && active && state.config.config.provider[name]?.models.includes(active)) {
        throw badRequest(`cannot disable provider '${name}' — it serves the active model '${active}'`);
      }
      const known = knownNames(list);
      if (!enabled && !known.includes(name)) {
        throw badRequest(`cannot disable ${list.slice(0, -1)} '${name}': there is none${didYouMean(name, known)}`);
      }
      const current = disabled()[list];
      const next = enabled ? current.filter((n) => n !== name) : current.includes(name) ? current : [...current, name];
      await changeConfig(state, (text) => setKey(text, ["disabled"], list, next), "SetEnabled");
      return { case: "pong", value: {} };
    },
  };
}
