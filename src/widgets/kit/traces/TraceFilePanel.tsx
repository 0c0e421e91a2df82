/**
 * The box through which a learner gives a widget a trace: a file picker, drag and drop anywhere on the box, a
 * button for the trace shipped with the lab, and the loader's progress and messages (useTraceLoader). The widget
 * says what a loaded trace's summary shows.
 */
import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { formatBytes } from '../../../lib/format';
import type { TraceIssue } from '../../../sim/engine/trace/errors';
import type { TraceLoad } from './useTraceLoader';
import { JobProgressLine } from '../JobProgress';
import './trace-file.css';

export function TraceFilePanel<R>({
  load,
  onFile,
  onSample,
  onClear,
  fileLabel = 'Trace file (Mooncake or native JSONL, up to 200 MiB)',
  sampleLabel = 'Load the sample trace',
  computingLabel = 'computing statistics…',
  renderReady,
}: {
  load: TraceLoad<R>;
  onFile: (f: File) => void;
  onSample: () => void;
  onClear: () => void;
  /** The file input's label: which formats the widget reads. */
  fileLabel?: string;
  /** The button that loads the trace shipped with the lab. */
  sampleLabel?: string;
  /** What the worker does in its last phase. */
  computingLabel?: string;
  /** The summary of a loaded trace. */
  renderReady: (result: R) => ReactNode;
}) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files?.[0];
    if (f) onFile(f);
  };
  return (
    <div
      className={`trace-drop${over ? ' is-over' : ''}`}
      data-trace-state={load.state}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className="trace-drop-row">
        <label htmlFor={inputId} className="trace-drop-label">
          {fileLabel}
        </label>
        {/*
          The browser's own picker says "No file chosen" beside a loaded trace (its value is cleared so the same
          file can be chosen again) and cuts its text in a narrow column; this button-like label names no file,
          and the status below names the one loaded. The input stays focusable for the keyboard.
        */}
        <input
          id={inputId}
          className="trace-file-input"
          type="file"
          accept=".jsonl,.json,.txt,application/json,text/plain"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) onFile(f);
            e.currentTarget.value = '';
          }}
        />
        <label htmlFor={inputId} className="trace-file-button" aria-hidden="true">
          Choose a file…
        </label>
        <button type="button" onClick={onSample}>
          {sampleLabel}
        </button>
        {load.state !== 'idle' ? (
          <button type="button" onClick={onClear}>
            Remove trace
          </button>
        ) : null}
      </div>
      <p className="trace-drop-hint">
        …or drop a file anywhere on this box. It is read in your browser and never leaves it.
      </p>
      <div role="status" aria-live="polite" className="trace-drop-status">
        {load.state === 'busy' && load.progress ? (
          <JobProgressLine progress={load.progress} onCancel={onClear} />
        ) : load.state === 'busy' ? (
          <p>
            <span className="trace-spinner" aria-hidden="true" /> {load.name}
            {load.bytes ? ` (${formatBytes(load.bytes)})` : ''}:{' '}
            {load.phase === 'fetching'
              ? 'fetching…'
              : load.phase === 'reading'
                ? 'reading in the worker…'
                : load.phase === 'parsing'
                  ? 'parsing lines…'
                  : computingLabel}
          </p>
        ) : null}
        {load.state === 'error' ? (
          <p className="trace-error">
            Could not use {load.name}: {load.message}
          </p>
        ) : null}
        {load.state === 'ready' ? renderReady(load.result) : null}
      </div>
    </div>
  );
}

/** Malformed lines a reader skipped, by number (the first eight; all of them in the widget's JSON export). */
export function TraceIssues({ errors, errorCount }: { errors: readonly TraceIssue[]; errorCount: number }) {
  if (errorCount === 0) return <p>Every line was read.</p>;
  return (
    <div className="trace-issues" data-trace-errors={errorCount}>
      <p>
        {errorCount} malformed {errorCount === 1 ? 'line was' : 'lines were'} skipped
        {errorCount > errors.length ? ` (the first ${errors.length} listed)` : ''}:
      </p>
      <ul>
        {errors.slice(0, 8).map((e) => (
          <li key={e.line} data-error-line={e.line}>
            line {e.line}: {e.message}
          </li>
        ))}
      </ul>
      {errors.length > 8 ? <p>…and {errors.length - 8} more listed in the JSON export.</p> : null}
    </div>
  );
}
