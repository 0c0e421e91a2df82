/** A widget's title and its toolbar: Reset, Copy link, Share…, the Export menu and Fullscreen. */
import { useState } from 'react';
import { EXPORT_KINDS, exportLabel, type ExportKind } from './exportWidget';

export function WidgetHeader({
  id,
  title,
  onReset,
  onCopyLink,
  shareOpen,
  onToggleShare,
  onExport,
  fullscreen,
  onToggleFullscreen,
}: {
  id: string;
  title: string;
  onReset?: () => void;
  onCopyLink: () => void;
  shareOpen: boolean;
  onToggleShare: () => void;
  onExport: (kind: ExportKind) => void;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="widget-header">
      <h3 id={`${id}-title`} className="widget-title">
        {title}
      </h3>
      <div className="widget-toolbar" role="toolbar" aria-label={`${title} tools`}>
        {onReset ? (
          <button type="button" onClick={onReset} title="Reset to defaults">
            Reset
          </button>
        ) : null}
        <button type="button" onClick={onCopyLink} title="Copy a link to this widget with its settings">
          Copy link
        </button>
        <button
          type="button"
          aria-expanded={shareOpen}
          onClick={onToggleShare}
          title="A link or embed code for this widget, optionally hiding or locking controls"
        >
          Share…
        </button>
        <div className="menu">
          <button
            type="button"
            aria-haspopup="true"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            Export
          </button>
          {menuOpen ? (
            <div className="menu-items" role="menu">
              {EXPORT_KINDS.map((k) => (
                <button
                  key={k}
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    setMenuOpen(false);
                    onExport(k);
                  }}
                >
                  {exportLabel(k)}
                </button>
              ))}
            </div>
          ) : null}
        </div>
        <button type="button" onClick={onToggleFullscreen} aria-pressed={fullscreen} title="Fullscreen">
          {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
        </button>
      </div>
    </header>
  );
}
