import { Text } from "ink";
import type { TuiState } from "../state/types.js";
import type { ChangedFile } from "./diff-files.js";
import { fit } from "./lines.js";
import { Pane } from "./Pane.js";
import { col } from "./theme.js";

/** The side column's files pane: what the last checkpoint committed, each file with +added -removed (f opens them). */
export function SideFilesPane({
  last,
  width,
  height,
}: {
  last: { checkpoint: TuiState["checkpoints"][number]; files: ChangedFile[] };
  width: number;
  height: number;
}) {
  const rows = Math.max(0, height - 1);
  const { checkpoint, files } = last;
  const shown = files.length > rows ? files.slice(0, Math.max(0, rows - 1)) : files;
  return (
    <Pane title={`Files · checkpoint #${checkpoint.seq} (f)`} focused={false} width={width} height={height}>
      {shown.map((f) => {
        const counts = ` +${f.added} -${f.removed}`;
        return (
          <Text key={f.path} wrap="truncate-end">
            {fit(f.path, width - counts.length)}
            <Text color={col("green")}>{` +${f.added}`}</Text>
            <Text color={col("red")}>{` -${f.removed}`}</Text>
          </Text>
        );
      })}
      {shown.length < files.length ? <Text color={col("gray")}>{`+${files.length - shown.length} more (f)`}</Text> : null}
      {files.length === 0 ? <Text color={col("gray")}>no file changed</Text> : null}
    </Pane>
  );
}
