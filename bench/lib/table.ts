/** Plain-text tables for the terminal; every cell is already a string. */
export type Table = { title: string; head: string[]; rows: string[][]; notes?: string[] }

export function renderTable(t: Table): string {
  const widths = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)))
  // Text in the first column reads left-aligned; numbers line up on the right.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  const rule = widths.map((w) => '─'.repeat(w)).join('  ')
  return [`\n${t.title}`, line(t.head), rule, ...t.rows.map(line), ...(t.notes ?? []).map((n) => `  ${n}`)].join('\n')
}

/** The same table as Markdown, for docs/performance.md. */
export function markdownTable(t: Table): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  return [
    `**${t.title}**`,
    '',
    `| ${t.head.map(esc).join(' | ')} |`,
    `|${t.head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
    ...(t.notes?.length ? ['', ...t.notes.map((n) => `- ${n}`)] : []),
  ].join('\n')
}

export const fmt = {
  ms: (v: number | null | undefined) =>
    v == null || !Number.isFinite(v) ? '—' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0),
  n: (v: number | null | undefined, digits = 0) => (v == null || !Number.isFinite(v) ? '—' : v.toFixed(digits)),
  int: (v: number | null | undefined) =>
    v == null || !Number.isFinite(v) ? '—' : Math.round(v).toLocaleString('en-US'),
  kb: (bytes: number | null | undefined) => (bytes == null ? '—' : (bytes / 1000).toFixed(1)),
  mb: (bytes: number | null | undefined) => (bytes == null ? '—' : (bytes / 1e6).toFixed(1)),
  ratio: (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? '—' : `${v.toFixed(2)}×`),
  /** "ok" when within the target, "OVER" when not, for a column that says whether a figure meets it. */
  target: (v: number | null | undefined, limit: number) =>
    v == null || !Number.isFinite(v) ? '—' : v <= limit ? 'ok' : 'OVER',
}
