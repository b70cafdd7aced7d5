import { toCsv, type CsvColumn } from './csv.js';
import { downloadText } from './download.js';

/** "Export CSV" of exactly the rows a panel shows; disabled when there are none. */
export function ExportCsvButton<Row>(props: {
  filename: string;
  columns: readonly CsvColumn<Row>[];
  rows: readonly Row[];
}) {
  return (
    <button
      type="button"
      className="button button-small"
      disabled={props.rows.length === 0}
      onClick={() => downloadText(props.filename, toCsv(props.columns, props.rows))}
    >
      Export CSV
    </button>
  );
}
