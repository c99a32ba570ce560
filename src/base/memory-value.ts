// The memory-limit syntax of systemd, checked both by the config schema
// (`[system.daemon]` limits) and by the service renderer that writes it out.

/** systemd's memory limits: bytes with K/M/G/T, a percentage, or "infinity". */
export const MEMORY_VALUE = /^(\d+(\.\d+)?[KMGT]?|\d+(\.\d+)?%|infinity)$/;
