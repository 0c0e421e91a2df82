import { describe, expect, it } from 'vitest';
import { parseLinkFlags, writeLinkFlags, type ParamSchema } from '../src/state/paramSchema';
import { createWidgetParamsStore, type UrlAccess } from '../src/state/widgetParams';
import { embedCode, standaloneUrl, widgetQuery } from '../src/widgets/kit/SharePanel';
import { matchRoute } from '../src/app/router';

const schema = {
  gpus: { kind: 'number', label: 'GPUs', default: 8, min: 1, max: 16, integer: true },
  model: {
    kind: 'select',
    label: 'Model',
    default: 'a',
    options: [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ],
  },
} satisfies ParamSchema;

function memoryUrl(search: string): UrlAccess & { search: string } {
  const u = {
    search,
    read: () => u.search,
    write: (s: string) => void (u.search = s),
  };
  return u;
}

describe('instructor links', () => {
  it('reads hide and lock lists, keeping only names the schema declares', () => {
    const f = parseLinkFlags(schema, 'w', '?w.hide=model,nope&w.lock=gpus,gpus&other.hide=gpus');
    expect(f.hidden).toEqual(['model']);
    expect(f.locked).toEqual(['gpus']);
    expect(f.unknown).toEqual(['nope']);
    expect(parseLinkFlags(schema, 'w', '?w.hide=&w.lock=,,')).toEqual({
      hidden: [],
      locked: [],
      unknown: [],
    });
  });

  it('writes the flags beside the settings and removes empty lists', () => {
    const s = writeLinkFlags('w', { hidden: ['model'], locked: ['gpus'] }, '?w.gpus=4&x.y=1');
    const q = new URLSearchParams(s);
    expect(q.get('w.hide')).toBe('model');
    expect(q.get('w.lock')).toBe('gpus');
    expect(q.get('w.gpus')).toBe('4');
    expect(q.get('x.y')).toBe('1');
    expect(writeLinkFlags('w', { hidden: [], locked: [] }, s)).toBe('?w.gpus=4&x.y=1');
  });

  it('a locked parameter keeps the link value: set is refused and reset keeps it; the flags stay in the URL', () => {
    const url = memoryUrl('?w.gpus=4&w.lock=gpus&w.hide=model');
    const store = createWidgetParamsStore('w', schema, url);
    expect(store.getState().values.gpus).toBe(4);
    expect(store.getState().locked).toEqual(['gpus']);
    expect(store.getState().hidden).toEqual(['model']);
    store.getState().set('gpus', 12);
    expect(store.getState().values.gpus).toBe(4);
    store.getState().set('model', 'b');
    expect(store.getState().values.model).toBe('b');
    store.getState().reset();
    expect(store.getState().values).toEqual({ gpus: 4, model: 'a' });
    expect(url.search).toContain('w.lock=gpus');
    expect(url.search).toContain('w.hide=model');
  });

  it('refuses a schema that names a parameter like a flag', () => {
    const bad = { hide: { kind: 'boolean', label: 'Hide', default: false } } satisfies ParamSchema;
    expect(() => createWidgetParamsStore('w', bad, memoryUrl(''))).toThrow(/instructor-link flag/);
  });
});

describe('standalone widget links', () => {
  it('keep only the widget’s own keys, and the embed code escapes them', () => {
    const search = '?w.gpus=4&w.hide=model&other.x=1&present';
    expect(widgetQuery('w', search)).toBe('?w.gpus=4&w.hide=model');
    expect(standaloneUrl('https://lab.example', 'w', search)).toBe(
      'https://lab.example/widget/w?w.gpus=4&w.hide=model',
    );
    const code = embedCode('https://lab.example', 'w', 'A "quoted" <title>', search);
    expect(code).toContain('src="https://lab.example/widget/w?w.gpus=4&amp;w.hide=model"');
    expect(code).toContain('title="A &#34;quoted&#34; &#60;title&#62;"');
    expect(code).toMatch(/^<iframe [^>]*><\/iframe>$/);
  });

  it('route /widget/<id>', () => {
    expect(matchRoute('/widget/kv-footprint')).toEqual({ kind: 'widget', id: 'kv-footprint' });
    expect(matchRoute('/widget/kv-footprint/')).toEqual({ kind: 'widget', id: 'kv-footprint' });
    expect(matchRoute('/widget/../x').kind).toBe('not-found');
  });
});
