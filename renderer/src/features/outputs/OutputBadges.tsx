import { Badge } from '../../components/Badge';
import type { ArtifactSummary } from './api';
import { attentionTone, outputStatusLabel, outputStatusTone, waitingLabel } from './format';

/** Status, review attention (fresh/watch/overdue with the wait), kind, version and pin of an output. */
export function OutputBadges({ output }: { output: ArtifactSummary }) {
  return (
    <span className="output-badges">
      <Badge tone={outputStatusTone(output.status)} title="Status">
        {outputStatusLabel(output.status)}
      </Badge>
      {output.approvalAttention && output.approvalAgeHours !== null ? (
        <Badge tone={attentionTone(output.approvalAttention)} title={`Review attention: ${output.approvalAttention}`}>
          {output.approvalAttention} · {waitingLabel(output.approvalAgeHours)}
        </Badge>
      ) : null}
      <span className="type-chip">{output.kind}</span>
      <span className="type-chip" title="Version">
        v{output.version}
      </span>
      {output.pinned ? <Badge tone="info">pinned</Badge> : null}
    </span>
  );
}
