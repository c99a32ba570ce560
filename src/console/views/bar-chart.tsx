// A bar chart as inline SVG (no chart library): one bar per row, its value
// written on it; the same numbers are in the table next to it for screen readers.

export interface Bar {
  label: string;
  value: number;
  text: string;
}

const WIDTH = 600;
const ROW = 26;
const LABEL = 170;

export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(...bars.map((b) => b.value), 0);
  const height = Math.max(bars.length, 1) * ROW + 4;
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={title} preserveAspectRatio="xMinYMin meet">
      <title>{title}</title>
      {bars.map((bar, i) => {
        const width = max > 0 ? Math.max(((WIDTH - LABEL - 90) * bar.value) / max, bar.value > 0 ? 2 : 0) : 0;
        const y = i * ROW + 2;
        return (
          <g key={bar.label}>
            <text x={LABEL - 8} y={y + 16} text-anchor="end" class="chart-label">
              {bar.label.length > 24 ? `${bar.label.slice(0, 23)}…` : bar.label}
            </text>
            <rect x={LABEL} y={y + 3} width={width} height={ROW - 8} rx={3} class="chart-bar" />
            <text x={LABEL + width + 6} y={y + 16} class="chart-value">
              {bar.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
