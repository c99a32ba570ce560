// Provider kinds as the wire numbers them and as config.toml names them.
import { ProviderKind as WireKind } from "../protocol/gen/crabtalk_pb.ts";
import type { ProviderKind } from "../base/provider-settings.ts";

const KIND_NAMES: Record<number, ProviderKind> = {
  [WireKind.PROVIDER_KIND_UNKNOWN]: "openai",
  [WireKind.OPENAI]: "openai",
  [WireKind.ANTHROPIC]: "anthropic",
  [WireKind.GOOGLE]: "google",
  [WireKind.BEDROCK]: "bedrock",
  [WireKind.OLLAMA]: "ollama",
  [WireKind.AZURE]: "azure",
  [WireKind.LLAMA_CPP]: "llama_cpp",
};

export function kindName(kind: WireKind): ProviderKind {
  return KIND_NAMES[kind] ?? "openai";
}
