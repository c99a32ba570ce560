// Provider kinds as the wire numbers them (enum ProviderKind of
// proto/crabtalk.proto) and as config.toml names them: the enum value is the
// kind's name in capitals, so a new kind needs only its enum value.
import { ProviderKind as WireKind } from "./gen/crabtalk_pb.ts";
import { PROVIDER_KINDS, type ProviderKind } from "../base/provider-kinds.ts";

export function wireKind(kind: ProviderKind): WireKind {
  return WireKind[kind.toUpperCase() as keyof typeof WireKind] ?? WireKind.PROVIDER_KIND_UNKNOWN;
}

/** The config name of a wire kind; an unknown one (or none) is "openai", the default kind. */
export function kindName(kind: WireKind): ProviderKind {
  const name = (WireKind[kind] ?? "").toLowerCase();
  return PROVIDER_KINDS.find((k) => k === name) ?? "openai";
}
