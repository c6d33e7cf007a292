import { cn } from "@/components/ui/cn";
import { formatDay } from "@/lib/format/time";
import {
  type ChartKind,
  type ChartSeries,
  type Geometry,
  lineSegments,
  MARGIN,
  showsDate,
  stackedBar,
  tooltipSide,
} from "./chart-geometry";
import { CHART_COLORS } from "./colors";

// The pieces of a per-day chart (time-chart.tsx), each drawn from its geometry.

type Format = (v: number) => string;

export function ChartLegend({ series, kind }: { series: ChartSeries[]; kind: ChartKind }) {
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-1 text-muted-foreground text-xs" aria-hidden>
      {series.map((s) => (
        <span key={s.key} className="inline-flex items-center gap-1.5">
          <span
            className={cn(
              CHART_COLORS[s.color].bg,
              kind === "lines" ? "h-0.5 w-3 rounded-full" : "size-2.5 rounded-sm",
            )}
          />
          {s.label}
        </span>
      ))}
    </div>
  );
}

/** The y axis: a grid line and a value per tick (the zero line solid). */
export function YAxis({ g, format }: { g: Geometry; format: Format }) {
  return g.ticks.map((t) => (
    <g key={t}>
      <line
        x1={MARGIN.left}
        x2={g.width - MARGIN.right}
        y1={g.y(t)}
        y2={g.y(t)}
        className={t === 0 ? "stroke-input" : "stroke-border"}
        strokeDasharray={t === 0 ? undefined : "2 3"}
      />
      <text
        x={MARGIN.left - 8}
        y={g.y(t)}
        dy="0.32em"
        textAnchor="end"
        className="fill-muted-foreground text-[11px] tabular-nums"
      >
        {t === 0 ? "0" : format(t)}
      </text>
    </g>
  ));
}

export function DayLabels({ g, days }: { g: Geometry; days: string[] }) {
  return days.map((day, i) =>
    showsDate(i, days.length, g.labelEvery) ? (
      <text
        key={day}
        x={g.x(i)}
        y={g.height - 6}
        textAnchor="middle"
        className="fill-muted-foreground text-[11px]"
      >
        {formatDay(day)}
      </text>
    ) : null,
  );
}

export function StackedBars({
  g,
  days,
  series,
}: {
  g: Geometry;
  days: string[];
  series: ChartSeries[];
}) {
  return days.map((day, i) => (
    <g key={day}>
      {stackedBar(series, i, g.y).map((p) => (
        <rect
          key={p.series.key}
          x={g.x(i) - g.barW / 2}
          y={p.top}
          width={g.barW}
          height={p.height}
          className={CHART_COLORS[p.series.color].fill}
        />
      ))}
    </g>
  ));
}

export function SeriesLines({
  g,
  series,
  active,
}: {
  g: Geometry;
  series: ChartSeries[];
  active: number | null;
}) {
  return series.map((s) => (
    <g key={s.key}>
      {lineSegments(s.values, g).map((d) => (
        <path
          key={d}
          d={d}
          fill="none"
          strokeWidth={2}
          strokeLinejoin="round"
          strokeLinecap="round"
          className={CHART_COLORS[s.color].stroke}
        />
      ))}
      {s.values.map((v, i) =>
        v === null ? null : (
          <circle
            // biome-ignore lint/suspicious/noArrayIndexKey: one point per day, in day order
            key={i}
            cx={g.x(i)}
            cy={g.y(v)}
            r={active === i ? 4 : 3}
            className={cn(CHART_COLORS[s.color].fill, "stroke-card")}
            strokeWidth={1.5}
          />
        ),
      )}
    </g>
  ));
}

const valueText = (v: number | null | undefined, format: Format) =>
  v === null || v === undefined ? "—" : format(v);

/** The day under the pointer: each series' value, beside the day. */
export function DayTooltip({
  g,
  day,
  active,
  series,
  format,
}: {
  g: Geometry;
  day: string;
  active: number;
  series: ChartSeries[];
  format: Format;
}) {
  return (
    <div
      aria-hidden
      className="pointer-events-none absolute top-0 z-10 grid min-w-36 gap-1 rounded-md border bg-card px-2.5 py-2 text-card-foreground text-xs shadow-md"
      style={tooltipSide(active, g)}
    >
      <span className="font-medium">{formatDay(day)}</span>
      {series.map((s) => (
        <span key={s.key} className="flex items-center gap-1.5">
          <span className={cn(CHART_COLORS[s.color].bg, "size-2 rounded-sm")} />
          <span className="text-muted-foreground">{s.label}</span>
          <span className="ml-auto pl-3 font-medium tabular-nums">
            {valueText(s.values[active], format)}
          </span>
        </span>
      ))}
    </div>
  );
}

/** The same numbers as a table, for screen readers. */
export function ChartTable({
  summary,
  days,
  series,
  format,
}: {
  summary: string;
  days: string[];
  series: ChartSeries[];
  format: Format;
}) {
  return (
    <div className="sr-only">
      <table>
        <caption>{summary}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, i) => (
            <tr key={day}>
              <th scope="row">{formatDay(day)}</th>
              {series.map((s) => (
                <td key={s.key}>{valueText(s.values[i], format)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
