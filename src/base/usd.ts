// Money as the daemon's budget messages and `crabtalk usage` show it (docs/usage.md).

/** `$0.0042`: four decimals below a dollar, two above. */
export function usd(amount: number): string {
  return `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
}
