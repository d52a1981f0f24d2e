import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useFormat } from '../../api/format.ts';
import { largestRows } from './chart-rows.ts';
import { useReportTexts } from './texts.ts';

/**
 * The reports' bar charts (recharts, in this chunk only). A chart is a picture of the
 * table beside it: role="img" with a name saying what it shows, its parts hidden from
 * screen readers (the table has every number). Horizontal bars, so long names fit at
 * phone width; at most `limit` rows, the largest by `rankBy` (default: the first
 * series), so a long report shows its biggest items (the table lists all). Numbers go
 * through the person's Format (recharts takes a formatter per axis tick, tooltip and
 * legend): hours in their duration style, money as plain numbers in their language.
 */
export interface Series {
  key: string;
  label: string;
  color: string;
}

export interface BarsChartProps {
  label: string;
  data: Array<Record<string, string | number | null>>;
  series: Series[];
  /** What the bars count: hours (the person's duration style) or an amount (a plain number; a chart never mixes currencies). */
  unit: 'hours' | 'amount';
  limit?: number;
  /** The key the rows are ranked by when there are more than `limit`; the first series' by default. */
  rankBy?: string;
}

/** Names on the axis: whole up to a full name's length ("Mara Lindqvist-Berg" was cut at 18), then cut. */
const LABEL_CHARS = 26;
const truncate = (text: string, max = LABEL_CHARS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/**
 * The axis as wide as its longest (cut) name at 12 px, about 7.2 px a character with the tick's
 * own gap (at 6.5, "Olive Owner" still broke onto two lines): short names leave the bars their room.
 */
const axisWidth = (names: string[]) => Math.min(200, Math.max(60, Math.ceil(Math.max(0, ...names.map((n) => Math.min(n.length, LABEL_CHARS))) * 7.2) + 16));

export function BarsChart({ label, data, series, unit, limit = 15, rankBy = series[0]?.key ?? 'name' }: BarsChartProps) {
  const t = useReportTexts();
  const format = useFormat();
  const rows = data.length > limit ? largestRows(data, rankBy, limit) : data;
  // The tooltip has the exact value; axis ticks are short (1.5, or 1:30 for those who read hours as h:mm).
  const exact = (v: number) => (unit === 'hours' ? format.hours(v) : format.number(v));
  const tick = (v: number) => (unit === 'hours' && format.settings.durationStyle === 'clock' ? format.hours(v) : format.number(v, 1));
  const height = 70 + rows.length * (series.length * 14 + 14);
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-3 shadow-xs">
      <div role="img" aria-label={label} data-testid="chart">
        <ResponsiveContainer width="100%" height={height}>
          <BarChart layout="vertical" data={rows} margin={{ top: 4, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <CartesianGrid horizontal={false} stroke="#e7e5e4" />
            <XAxis type="number" tickFormatter={(v: number) => tick(v)} stroke="#57534e" fontSize={12} />
            <YAxis type="category" dataKey="name" width={axisWidth(rows.map((r) => String(r.name)))} tickFormatter={(v: string) => truncate(v)} stroke="#57534e" fontSize={12} interval={0} />
            <Tooltip formatter={(v) => exact(Number(v))} isAnimationActive={false} />
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span className="text-stone-700">{value}</span>} />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="mt-2 text-xs text-stone-600">
        {data.length > rows.length ? t('chart.largest', { label, shown: rows.length, count: data.length }) : t('chart.all', { label })}
      </figcaption>
    </figure>
  );
}
