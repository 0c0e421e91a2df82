/**
 * "?" shows what the keyboard does in the lab (keyboardHelp.ts), in a modal dialog: Escape or Close leaves it and
 * gives the focus back. Never while typing in a field, where "?" is a character. The dialog sits at the page's
 * root (presentation mode hides the footer, and a modal dialog inside a hidden element would only make the page
 * inert); the footer's button opens it through the context.
 */
import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';
import { focusKind } from '../presentation/keys';
import { KEYBOARD_HELP, keyCap } from './keyboardHelp';
import './keyboard.css';

const OpenHelp = createContext<() => void>(() => {});

/** The dialog and the "?" key for everything inside. */
export function KeyboardHelp({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = useCallback(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
      if (focusKind(document.activeElement) === 'typing') return;
      e.preventDefault();
      open();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <OpenHelp.Provider value={open}>
      {children}
      <dialog ref={dialog} className="keyboard-help" aria-labelledby="keyboard-help-title">
        {/* Close first: a modal dialog focuses its first control, and this keeps the list's top in view. */}
        <div className="keyboard-help-head">
          <h2 id="keyboard-help-title">The keyboard</h2>
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
        {KEYBOARD_HELP.map((section) => (
          <section key={section.id} data-keys={section.id}>
            <h3>
              {section.title} <span className="keyboard-help-where">({section.where})</span>
            </h3>
            <dl>
              {section.rows.map((row) => (
                <div key={row.action}>
                  <dt>
                    {row.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 ? ' or ' : null}
                        <kbd>{keyCap(k)}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{row.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </dialog>
    </OpenHelp.Provider>
  );
}

/** The footer's way in. */
export function KeyboardHelpButton() {
  const open = useContext(OpenHelp);
  return (
    <button type="button" className="link-button keyboard-help-open" onClick={open}>
      Keyboard (?)
    </button>
  );
}
