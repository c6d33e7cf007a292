"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { formatDay } from "@/lib/format/time";
import { CHART_COLORS, type ChartColor } from "./colors";
import { linear, niceTicks, type TickUnit } from "./scale";
import { useWidth } from "./use-width";

type ChartSeries = {
  key: string;
  label: string;
  color: ChartColor;
  /** One value per day; null where there is nothing to show (no line point, no bar). */
  values: (number | null)[];
};

type Props = {
  /** YYYY-MM-DD, oldest first. */
  days: string[];
  series: ChartSeries[];
  kind: "stacked" | "lines";
  /** Formats a value for the axis, the tooltip and the table. */
  format: (v: number) => string;
  /** What the chart shows in a sentence, read out for the image. */
  summary: string;
  /** Forces the top of the y axis (a rate's 100%). */
  max?: number;
  /** What the y axis counts, for round ticks (whole runs; seconds as 1 m, 2 m). */
  unit?: TickUnit;
  height?: number;
  /** Said over the plot when every value is empty or zero. */
  emptyLabel?: string;
};

const M = { top: 10, right: 8, bottom: 24, left: 48 };

/**
 * A per-day chart drawn in SVG: y axis with round ticks and grid, dates below, bars stacked by
 * series or one line per series, a tooltip for the day under the pointer, and the same numbers in
 * a visually hidden table for screen readers.
 */
export function TimeChart({
  days,
  series,
  kind,
  format,
  unit,
  summary,
  max,
  height = 180,
  emptyLabel = "Nothing recorded in these days",
}: Props) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);

  const totals = days.map((_, i) =>
    kind === "stacked"
      ? series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)
      : Math.max(0, ...series.map((s) => s.values[i] ?? 0)),
  );
  const ticks = niceTicks(max ?? Math.max(0, ...totals), 4, unit);
  const top = ticks.at(-1) ?? 1;
  const innerW = Math.max(0, width - M.left - M.right);
  const innerH = height - M.top - M.bottom;
  const y = linear(top, M.top + innerH, M.top);
  const band = days.length ? innerW / days.length : 0;
  const x = (i: number) => M.left + band * i + band / 2;
  const barW = Math.max(2, Math.min(28, band * 0.62));
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(innerW / 56))));

  const segments = (values: (number | null)[]) => {
    const out: string[] = [];
    let d = "";
    values.forEach((v, i) => {
      if (v === null) {
        if (d) out.push(d);
        d = "";
        return;
      }
      d += `${d ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    });
    if (d) out.push(d);
    return out;
  };

  const empty = series.every((s) => s.values.every((v) => v === null || v === 0));
  const activeDay = active === null ? undefined : days[active];
  return (
    <div className="grid min-w-0 gap-2">
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
      <div ref={ref} className="relative w-full" style={{ height }}>
        {width > 0 && (
          <svg
            width={width}
            height={height}
            role="img"
            aria-label={summary}
            className="absolute inset-0 block overflow-visible"
            onMouseMove={(e) => {
              const left = e.clientX - e.currentTarget.getBoundingClientRect().left - M.left;
              const i = Math.floor(left / (band || 1));
              setActive(i >= 0 && i < days.length ? i : null);
            }}
            onMouseLeave={() => setActive(null)}
          >
            {ticks.map((t) => (
              <g key={t}>
                <line
                  x1={M.left}
                  x2={width - M.right}
                  y1={y(t)}
                  y2={y(t)}
                  className={t === 0 ? "stroke-input" : "stroke-border"}
                  strokeDasharray={t === 0 ? undefined : "2 3"}
                />
                <text
                  x={M.left - 8}
                  y={y(t)}
                  dy="0.32em"
                  textAnchor="end"
                  className="fill-muted-foreground text-[11px] tabular-nums"
                >
                  {t === 0 ? "0" : format(t)}
                </text>
              </g>
            ))}
            {days.map((day, i) =>
              (days.length - 1 - i) % labelEvery === 0 ? (
                <text
                  key={day}
                  x={x(i)}
                  y={height - 6}
                  textAnchor="middle"
                  className="fill-muted-foreground text-[11px]"
                >
                  {formatDay(day)}
                </text>
              ) : null,
            )}
            {active !== null && (
              <rect
                x={M.left + band * active}
                y={M.top}
                width={band}
                height={innerH}
                className="fill-muted"
              />
            )}
            {kind === "stacked" &&
              days.map((day, i) => {
                let base = 0;
                return (
                  <g key={day}>
                    {series.map((s) => {
                      const v = s.values[i] ?? 0;
                      if (v <= 0) return null;
                      const y0 = y(base);
                      base += v;
                      const y1 = y(base);
                      return (
                        <rect
                          key={s.key}
                          x={x(i) - barW / 2}
                          y={y1}
                          width={barW}
                          height={Math.max(1, y0 - y1 - 0.5)}
                          className={CHART_COLORS[s.color].fill}
                        />
                      );
                    })}
                  </g>
                );
              })}
            {kind === "lines" &&
              series.map((s) => (
                <g key={s.key}>
                  {segments(s.values).map((d) => (
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
                        cx={x(i)}
                        cy={y(v)}
                        r={active === i ? 4 : 3}
                        className={cn(CHART_COLORS[s.color].fill, "stroke-card")}
                        strokeWidth={1.5}
                      />
                    ),
                  )}
                </g>
              ))}
          </svg>
        )}
        {empty && (
          <p className="absolute inset-x-0 top-1/2 -translate-y-1/2 pl-12 text-center text-muted-foreground text-xs">
            {emptyLabel}
          </p>
        )}
        {activeDay !== undefined && active !== null && (
          <div
            aria-hidden
            className="pointer-events-none absolute top-0 z-10 grid min-w-36 gap-1 rounded-md border bg-card px-2.5 py-2 text-card-foreground text-xs shadow-md"
            style={
              x(active) > width / 2
                ? { right: width - x(active) + band / 2 + 4 }
                : { left: x(active) + band / 2 + 4 }
            }
          >
            <span className="font-medium">{formatDay(activeDay)}</span>
            {series.map((s) => (
              <span key={s.key} className="flex items-center gap-1.5">
                <span className={cn(CHART_COLORS[s.color].bg, "size-2 rounded-sm")} />
                <span className="text-muted-foreground">{s.label}</span>
                <span className="ml-auto pl-3 font-medium tabular-nums">
                  {s.values[active] === null || s.values[active] === undefined
                    ? "—"
                    : format(s.values[active] as number)}
                </span>
              </span>
            ))}
          </div>
        )}
      </div>
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
                {series.map((s) => {
                  const v = s.values[i];
                  return <td key={s.key}>{v === null || v === undefined ? "—" : format(v)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
