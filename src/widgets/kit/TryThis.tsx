/**
 * A widget's "Try this" list, as data: each item says what to do and the state it describes, so "Show me" sets
 * that state, and the lesson's guided tour plays the same items as steps (lessons-kit/Tour.tsx, `tryThis={n}`).
 */
import { useContext, useEffect } from 'react';
import { StageContext, WidgetIdContext, type TryItem } from './stage';
import { clearHighlights, showStateWhenReady } from './showState';

export type { TryItem };

export function TryThis({ items }: { items: readonly TryItem[] }) {
  const stage = useContext(StageContext);
  const widget = useContext(WidgetIdContext);
  useEffect(() => {
    if (!stage || !widget) return;
    return stage.addTryThis(widget, items);
  }, [stage, widget, items]);
  const canShow = !!stage && !!widget;
  return (
    <ul className="try-this">
      {items.map((item, i) => {
        const hasState = item.set || item.time !== undefined || item.play || item.highlight;
        return (
          <li key={i} data-try={i}>
            {item.text}
            {canShow && hasState ? (
              <>
                {' '}
                <button
                  type="button"
                  className="try-show"
                  onClick={() => {
                    clearHighlights(stage!);
                    showStateWhenReady(stage!, { widget: widget!, ...item }, { scroll: false });
                  }}
                >
                  Show me
                </button>
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
