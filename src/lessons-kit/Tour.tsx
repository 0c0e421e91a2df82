/**
 * A guided tour, written in the lesson's MDX, that plays like a video in place of one: each step scrolls to a
 * section or widget, sets the widget's parameters and transport time, highlights a read-out or mark by its stable
 * id, and shows a caption (announced to screen readers); play, pause, next, previous and a progress bar drive it.
 * Every control stays live, so the instructor can stop and ask "what happens if…".
 *
 *   <Tour lesson="07.04" title="…">
 *     <TourStep section="why-it-matters-for-agents" seconds={30}>Caption…</TourStep>
 *     <TourStep widget="kv-footprint" set={{ kvDtype: 'fp8' }} highlight="concurrent-contexts" seconds={45}>
 *       Caption…
 *     </TourStep>
 *   </Tour>
 *
 * A step is absolute: the widget is reset to its defaults before `set` applies (locked parameters stay as the link
 * set them), so jumping to any step shows the same picture. A step that talks about a chart highlights the chart
 * (its `TourMark` id), and the step's target is scrolled clear of the caption bar, which the tour measures.
 *
 * On a phone (tour.css) the bar is compact: smaller type, the caption cut to three lines with a "More" button that
 * shows the rest, and one row of controls, so that it takes about a seventh of the screen, not half of it.
 */
import {
  Children,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { StageContext, type StageRegistry } from '../widgets/kit/stage';
import { clearHighlights, showStateWhenReady, type ShownState } from '../widgets/kit/showState';
import { useIdle } from '../widgets/kit/useIdle';
import '../widgets/kit/tour.css';

/** How long the pointer and keys rest before a presented tour folds its controls away, leaving the caption. */
const CONTROLS_IDLE_MS = 2500;

export interface TourStepProps extends ShownState {
  /** Seconds the step stays on screen while playing. */
  seconds: number;
  /**
   * Play the widget's n-th "Try this" item (0-based): its text is the caption and its state the step's, unless the
   * step gives its own.
   */
  tryThis?: number;
  children?: ReactNode;
}

/** The step's caption and state, with a "Try this" item filled in from its widget. */
export function resolveStep(
  stage: StageRegistry | null,
  step: TourStepProps,
): { caption: ReactNode; state: ShownState } {
  const item =
    step.tryThis !== undefined && step.widget ? stage?.tryThis(step.widget)?.[step.tryThis] : undefined;
  const { seconds: _s, tryThis: _t, children, ...own } = step;
  void _s;
  void _t;
  return {
    caption: children ?? item?.text ?? '…',
    state: {
      ...(item ? { set: item.set, time: item.time, play: item.play, highlight: item.highlight } : {}),
      ...Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined)),
    },
  };
}

/** Declares one step; the Tour reads its props (it renders nothing itself). */
export function TourStep(props: TourStepProps): ReactElement | null {
  void props;
  return null;
}

function stepsOf(children: ReactNode): TourStepProps[] {
  return Children.toArray(children)
    .filter((c): c is ReactElement<TourStepProps> => isValidElement(c) && c.type === TourStep)
    .map((c) => c.props);
}

function clock(s: number): string {
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
}

export function Tour({ lesson, title, children }: { lesson: string; title: string; children: ReactNode }) {
  const stage = useContext(StageContext);
  const steps = stepsOf(children);
  const total = steps.reduce((a, s) => a + s.seconds, 0);
  const [index, setIndex] = useState(-1);
  const [playing, setPlaying] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const stepsRef = useRef(steps);
  useEffect(() => {
    stepsRef.current = steps;
  });

  // Where the caption bar begins, px from the window's top: the step's target is scrolled above it. While a presented
  // tour's controls are folded away, the room they take when they come back still counts.
  const barRef = useRef<HTMLDivElement>(null);
  const controlsRoom = useRef(0);
  const coveredBelow = useCallback(() => {
    const bar = barRef.current;
    if (!bar) return window.innerHeight;
    const top = bar.getBoundingClientRect().top;
    const controls = bar.querySelector('.tour-controls')?.getBoundingClientRect().height ?? 0;
    if (controls > 2) {
      controlsRoom.current = controls;
      return top;
    }
    return top - controlsRoom.current;
  }, []);

  // Show the step's state (retrying while its widget loads or its read-out has not been drawn yet).
  useEffect(() => {
    if (!stage || index < 0) return;
    clearHighlights(stage);
    return showStateWhenReady(stage, resolveStep(stage, stepsRef.current[index]).state, { coveredBelow });
  }, [stage, index, coveredBelow]);

  // On a phone the caption shows three lines; "More" shows the rest (reset on every step).
  const captionRef = useRef<HTMLParagraphElement>(null);
  const captionId = useId();
  const [expandedAt, setExpandedAt] = useState<number | null>(null);
  const expanded = expandedAt === index;
  const [clamped, setClamped] = useState(false);
  const shown = index >= 0;
  useLayoutEffect(() => {
    const el = captionRef.current;
    if (!el) return;
    const measure = () => setClamped(el.scrollHeight > el.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [index, shown, expanded]);

  // Captions of "Try this" steps come from their widgets, which register after the first render.
  const [, setVersion] = useState(0);
  useEffect(() => stage?.subscribe(() => setVersion((v) => v + 1)), [stage]);

  // Playback clock: a quarter-second tick advances within the step, then to the next one.
  useEffect(() => {
    if (!playing || index < 0) return;
    const started = performance.now() - elapsed * 1000;
    const tick = setInterval(() => {
      const e = (performance.now() - started) / 1000;
      const len = stepsRef.current[index]?.seconds ?? 0;
      if (e < len) {
        setElapsed(e);
        return;
      }
      clearInterval(tick);
      setElapsed(0);
      if (index + 1 < stepsRef.current.length) setIndex(index + 1);
      else setPlaying(false);
    }, 250);
    return () => clearInterval(tick);
    // `elapsed` is read once when playback (re)starts on this step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing, index]);

  useEffect(
    () => () => {
      if (stage) clearHighlights(stage);
    },
    [stage],
  );

  const go = useCallback(
    (i: number) => {
      setElapsed(0);
      setIndex(Math.max(0, Math.min(steps.length - 1, i)));
    },
    [steps.length],
  );
  const play = () => {
    if (index < 0) go(0);
    setPlaying(true);
  };
  const stop = () => {
    setPlaying(false);
    setIndex(-1);
    setElapsed(0);
    if (stage) clearHighlights(stage);
  };

  const before = steps.slice(0, Math.max(0, index)).reduce((a, s) => a + s.seconds, 0);
  const at = index < 0 ? 0 : before + elapsed;
  const current = index >= 0 ? steps[index] : null;
  // Listens only while the tour's bar is on screen.
  const idle = useIdle(CONTROLS_IDLE_MS, current !== null);

  const controls = (
    <div className="tour-controls">
      <button type="button" onClick={() => go(index - 1)} disabled={index <= 0} aria-label="Previous step">
        ‹<span className="tour-wide"> Previous</span>
      </button>
      {playing ? (
        <button type="button" onClick={() => setPlaying(false)} className="tour-play">
          Pause
        </button>
      ) : (
        <button type="button" onClick={play} className="tour-play">
          Play
        </button>
      )}
      <button
        type="button"
        onClick={() => go(index + 1)}
        disabled={index >= steps.length - 1}
        aria-label="Next step"
      >
        <span className="tour-wide">Next </span>›
      </button>
      <progress className="tour-progress" max={total} value={at} aria-label="Tour progress" />
      <span className="tour-clock">
        Step {index + 1} of {steps.length}
        <span className="tour-clock-time">
          {' '}
          · {clock(at)} / {clock(total)}
        </span>
      </span>
      {clamped || expanded ? (
        <button
          type="button"
          className="tour-more"
          aria-expanded={expanded}
          aria-controls={captionId}
          onClick={() => setExpandedAt(expanded ? null : index)}
        >
          {expanded ? 'Less' : 'More'}
        </button>
      ) : null}
      <button type="button" onClick={stop} aria-label="End tour" className="tour-end">
        <span className="tour-wide">End tour</span>
        <span className="tour-narrow" aria-hidden="true">
          ✕
        </span>
      </button>
    </div>
  );

  return (
    <section className="tour" data-tour={lesson} aria-label={`Guided tour: ${title}`}>
      <p className="tour-title">
        <strong>Guided tour</strong> · {title} · {Math.round(total / 60)} min
      </p>
      <p className="tour-lede">
        Plays the lesson&apos;s widgets step by step in place of a video: each step sets a widget and says
        what to look at. Every control stays live; pause to try something.
      </p>
      {current ? (
        <p className="tour-lede">
          Playing: the tour&apos;s controls are in the bar at the bottom of the window.
        </p>
      ) : (
        <div className="tour-controls">
          <button type="button" onClick={play} className="tour-play">
            Play the tour
          </button>
        </div>
      )}
      <ol className="tour-steps">
        {steps.map((s, i) => (
          <li key={i} data-tour-step={i} aria-current={i === index ? 'step' : undefined}>
            <button type="button" onClick={() => go(i)}>
              {resolveStep(stage, s).caption}
            </button>
          </li>
        ))}
      </ol>
      {current ? (
        <div
          className="tour-bar"
          role="region"
          aria-label="Tour step"
          data-idle={idle ? '' : undefined}
          ref={barRef}
        >
          <p
            className="tour-caption"
            aria-live="polite"
            data-tour-caption={index}
            data-expanded={expanded ? '' : undefined}
            id={captionId}
            ref={captionRef}
          >
            {resolveStep(stage, current).caption}
          </p>
          {controls}
        </div>
      ) : null}
    </section>
  );
}
