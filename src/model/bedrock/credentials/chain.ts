// The default AWS credential chain (docs/providers.md#bedrock--aws-bedrock):
// the sources of the AWS SDK v3's defaultProvider (@aws-sdk/credential-provider-node),
// in its order, without the SDK:
//   1. the environment (skipped when AWS_PROFILE is set, as in the SDK);
//   2. the shared files' profile (AWS_PROFILE or `default`): static keys,
//      assumed roles, web identity, credential_process, SSO;
//   3. web identity from AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN;
//   4. container credentials when AWS_CONTAINER_CREDENTIALS_* is set, else
//      EC2 instance metadata unless AWS_EC2_METADATA_DISABLED.
// A source that is not configured is passed over; one that is configured and
// fails ends the chain with its own error (the SDK passes over some of those,
// e.g. a failing credential_process, and ends at instance metadata with
// "Could not load credentials from any providers"). When nothing yields
// credentials, one error lists what was tried and why each gave nothing.
// Credentials are kept until 5 minutes before they expire (the SDK's window);
// concurrent callers share one resolution.
import { ProviderError } from "../../errors.ts";
import { containerConfigured, fromContainer } from "./container.ts";
import { fromEnv } from "./env.ts";
import { abortedError, PREFIX } from "./failure.ts";
import { fromInstanceMetadata, imdsDisabled } from "./imds.ts";
import { fromProfile } from "./profile.ts";
import { type Context, type Env, NextSource, type ResolvedCredentials } from "./types.ts";
import { fromWebIdentityEnv } from "./web-identity.ts";

export type { ResolvedCredentials } from "./types.ts";

/** Credentials closer than this to their expiration are refreshed (the SDK's 300000 ms). */
export const REFRESH_WINDOW_MS = 5 * 60 * 1000;

type Step = (ctx: Context) => Promise<ResolvedCredentials> | ResolvedCredentials;

const STEPS: Step[] = [
  (ctx) => {
    if (ctx.env.AWS_PROFILE) throw new NextSource("environment: passed over because AWS_PROFILE is set");
    return fromEnv(ctx.env);
  },
  fromProfile,
  fromWebIdentityEnv,
  (ctx) => {
    if (containerConfigured(ctx)) return fromContainer(ctx);
    if (imdsDisabled(ctx)) throw new NextSource("instance metadata: disabled by AWS_EC2_METADATA_DISABLED");
    return fromInstanceMetadata(ctx).catch((err: unknown) => {
      // Off EC2 this is the usual end of the chain: the failure joins the list of what was tried.
      if (err instanceof ProviderError && err.kind !== "aborted" && !ctx.signal.aborted) throw new NextSource(err.message.slice(`${PREFIX}: `.length));
      throw err;
    });
  },
];

/** One walk of the chain. */
export async function resolveCredentials(ctx: Context): Promise<ResolvedCredentials> {
  const tried: string[] = [];
  for (const step of STEPS) {
    try {
      return await step(ctx);
    } catch (err) {
      if (!(err instanceof NextSource)) throw err;
      tried.push(err.message);
    }
  }
  throw new ProviderError(`${PREFIX}: none found. Tried ${tried.join("; ")}`, { kind: "other" });
}

/**
 * The default chain, read from `env` (process.env by default) at each
 * resolution; cached until 5 minutes before expiry; one refresh in flight at
 * a time. A caller's abort ends its own wait; the shared resolution is
 * aborted only when every caller waiting on it has aborted.
 */
export function defaultCredentialChain(options: { region: string; env?: Env }): (signal?: AbortSignal) => Promise<ResolvedCredentials> {
  let cached: ResolvedCredentials | undefined;
  let inFlight: { promise: Promise<ResolvedCredentials>; controller: AbortController; waiters: number } | undefined;
  const fresh = (c: ResolvedCredentials) => c.expiration === undefined || c.expiration.getTime() - Date.now() > REFRESH_WINDOW_MS;

  const start = () => {
    const controller = new AbortController();
    const previous = cached;
    const ctx: Context = { env: options.env ?? process.env, region: options.region, signal: controller.signal };
    const promise = resolveCredentials(ctx).then(
      (credentials) => {
        cached = credentials;
        return credentials;
      },
      (err: unknown) => {
        // As the SDK: a failed refresh keeps credentials that have not expired yet.
        if (!controller.signal.aborted && previous?.expiration && previous.expiration.getTime() > Date.now()) return previous;
        throw err;
      },
    );
    const flight = { promise, controller, waiters: 0 };
    promise
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        if (inFlight === flight) inFlight = undefined;
      });
    return flight;
  };

  return async (signal?: AbortSignal) => {
    if (signal?.aborted) throw abortedError(signal.reason);
    if (cached && fresh(cached)) return cached;
    inFlight ??= start();
    const flight = inFlight;
    flight.waiters++;
    try {
      if (!signal) return await flight.promise;
      return await new Promise<ResolvedCredentials>((resolve, reject) => {
        const onAbort = () => {
          reject(abortedError(signal.reason));
          if (--flight.waiters === 0) flight.controller.abort();
        };
        signal.addEventListener("abort", onAbort, { once: true });
        flight.promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
      });
    } finally {
      if (!signal?.aborted) flight.waiters--;
    }
  };
}
