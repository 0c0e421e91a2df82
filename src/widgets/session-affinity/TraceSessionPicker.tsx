/**
 * The replay's recorded trajectory (AffinityReplay.tsx): the trace box (07.01's loader, the shipped SWE-agent run
 * unless the learner gives a file), then the pick of one of its sessions, longest first. A rank past the
 * trace's sessions replays its last one, and says so.
 */
import { Select } from '../kit/controls/Select';
import { TraceFilePanel, TraceIssues } from '../kit/traces/TraceFilePanel';
import type { TraceLoad } from '../kit/traces/useTraceLoader';
import { formatBytes, formatCount, formatTokens } from '../../lib/format';
import type { TraceSessionsResult } from '../../worker/affinityMethods';
import { affinityReplaySchema } from './schema';

export function TraceSessionPicker({
  load,
  onFile,
  onSample,
  onClear,
  session,
  rank,
  onSession,
}: {
  load: TraceLoad<TraceSessionsResult>;
  onFile: (f: File) => void;
  onSample: () => void;
  onClear: () => void;
  /** The session the parameters ask for (a rank, 1 = the longest). */
  session: number;
  /** The one replayed: `session`, within the trace's sessions. */
  rank: number;
  onSession: (rank: number) => void;
}) {
  const list = load.state === 'ready' ? load.result : null;
  return (
    <>
      <TraceFilePanel
        load={load}
        onFile={onFile}
        onSample={onSample}
        onClear={onClear}
        fileLabel="Trace file (sal-trace JSONL, up to 200 MiB)"
        sampleLabel="Load the shipped SWE-agent trajectory"
        computingLabel="listing its sessions…"
        renderReady={(result) => (
          <div className="trace-summary">
            <p>
              <strong>{result.name}</strong> ({formatBytes(result.bytes)}): {formatCount(result.turns)} turns
              in {formatCount(result.totalSessions)} session
              {result.totalSessions === 1 ? '' : 's'}
              {result.totalSessions > result.sessions.length
                ? `; the ${result.sessions.length} longest are listed`
                : ''}
              .
            </p>
            <TraceIssues errors={result.errors} errorCount={result.errorCount} />
          </div>
        )}
      />
      {list ? (
        <Select
          name="session"
          spec={{
            kind: 'select',
            label: affinityReplaySchema.session.label,
            default: '1',
            help: affinityReplaySchema.session.help,
            options: list.sessions.map((x, i) => ({
              value: String(i + 1),
              label: `${i + 1}. ${x.id} (${x.turns} turns, ${formatTokens(x.firstPromptTokens)} → ${formatTokens(x.lastPromptTokens)})`,
            })),
          }}
          value={String(rank)}
          onChange={(x) => onSession(Number(x))}
        />
      ) : null}
      {list && session > list.sessions.length ? (
        <p className="control-value" role="note" data-session-clamped>
          This trace lists {list.sessions.length} session{list.sessions.length === 1 ? '' : 's'}, not{' '}
          {session}: showing the last one.
        </p>
      ) : null}
    </>
  );
}
