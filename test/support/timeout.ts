// Tests start real daemon processes: give slow, shared machines room. (A
// `timeout` key in bunfig.toml is not read by `bun test`; this preload is.)
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(30_000);
