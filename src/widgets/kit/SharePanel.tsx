/**
 * Links for instructors: this widget's settings as a link that can hide chosen controls and lock parameters
 * (paramSchema.ts link flags), the same as a standalone page (/widget/<id>) and as embed code for a slide.
 */
import { browserUrl } from '../../state/widgetParams';
import { useId, useState } from 'react';
import { writeLinkFlags } from '../../state/paramSchema';
import type { StageParams } from './stage';

/** The query with only this widget's keys (settings and link flags). */
export function widgetQuery(id: string, search: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(search)) if (k.startsWith(`${id}.`)) q.append(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function standaloneUrl(origin: string, id: string, search: string): string {
  return `${origin}/widget/${id}${widgetQuery(id, search)}`;
}

export function embedCode(origin: string, id: string, title: string, search: string): string {
  const src = standaloneUrl(origin, id, search).replace(/&/g, '&amp;');
  const safeTitle = title.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<iframe src="${src}" title="${safeTitle}" width="1280" height="800" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}

export function SharePanel({
  id,
  title,
  params,
  onCopy,
}: {
  id: string;
  title: string;
  params: StageParams | undefined;
  onCopy: (text: string, what: string) => void;
}) {
  const state = params?.store.getState();
  const [hidden, setHidden] = useState<string[]>(() => state?.hidden ?? []);
  const [locked, setLocked] = useState<string[]>(() => state?.locked ?? []);
  const headingId = useId();
  const keys = params ? Object.keys(params.schema) : [];
  // The query as it will be (a dragged control's URL write is coalesced: widgetParams.ts).
  const search = () => writeLinkFlags(id, { hidden, locked }, browserUrl.read());
  const toggle = (list: string[], set: (l: string[]) => void, key: string) =>
    set(list.includes(key) ? list.filter((k) => k !== key) : [...list, key]);
  const origin = window.location.origin;
  return (
    <div className="share-panel" role="group" aria-labelledby={headingId} data-share-panel={id}>
      <p id={headingId} className="share-title">
        Share this widget as it is set now
      </p>
      {keys.length ? (
        <table className="share-table">
          <thead>
            <tr>
              <th scope="col">Control</th>
              <th scope="col">Hide</th>
              <th scope="col">Lock</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k}>
                <th scope="row">{params!.schema[k].label}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Hide ${params!.schema[k].label}`}
                    checked={hidden.includes(k)}
                    onChange={() => toggle(hidden, setHidden, k)}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Lock ${params!.schema[k].label}`}
                    checked={locked.includes(k)}
                    onChange={() => toggle(locked, setLocked, k)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="share-actions">
        <button
          type="button"
          onClick={() =>
            onCopy(`${origin}${window.location.pathname}${search()}#${id}`, 'Link with these settings copied')
          }
        >
          Copy link
        </button>
        <button
          type="button"
          onClick={() => onCopy(standaloneUrl(origin, id, search()), 'Standalone link copied')}
        >
          Copy standalone link
        </button>
        <button
          type="button"
          onClick={() => onCopy(embedCode(origin, id, title, search()), 'Embed code copied')}
        >
          Copy embed code
        </button>
        <a href={standaloneUrl(origin, id, search())} target="_blank" rel="noreferrer">
          Open alone
        </a>
      </div>
    </div>
  );
}
