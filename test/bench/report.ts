/** Plain-text tables for the terminal and the numbers formatted the same way everywhere. */

export type Cell = string | number | boolean | undefined;

export function table(headers: readonly string[], rows: readonly Cell[][]): string {
  const text = rows.map((row) => row.map(cellText));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...text.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        /^[-+]?[\d.]+( ?[a-zA-Z/%]+)?$/.test(cell) && column > 0
          ? cell.padStart(widths[column]!)
          : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((width) => "-".repeat(width))), ...text.map(line)].join(
    "\n",
  );
}

function cellText(cell: Cell): string {
  if (cell === undefined) return "—";
  if (typeof cell === "boolean") return cell ? "yes" : "NO";
  return String(cell);
}

export function heading(title: string): string {
  return `\n== ${title}\n`;
}
