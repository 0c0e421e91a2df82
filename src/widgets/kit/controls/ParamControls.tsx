/**
 * Renders one control per parameter of a widget's schema, in declaration order. An instructor link can hide
 * controls (not rendered) or lock them (rendered disabled inside a fieldset, marked as set by the link).
 */
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ParamSchema } from '../../../state/paramSchema';
import type { WidgetParams } from '../useWidgetParams';
import { Select } from './Select';
import { Slider } from './Slider';
import { Toggle } from './Toggle';
import { SeedField } from './SeedField';

export function ParamControls<S extends ParamSchema>({
  params,
  only,
}: {
  params: WidgetParams<S>;
  only?: (keyof S & string)[];
}) {
  const hidden = useStore(params.store, (s) => s.hidden);
  const locked = useStore(params.store, (s) => s.locked);
  const keys = ((only ?? Object.keys(params.schema)) as (keyof S & string)[]).filter(
    (k) => !hidden.includes(k),
  );
  const values = params.values as Record<string, unknown>;
  return (
    <>
      {keys.map((key) => {
        const control = controlFor(key);
        if (!locked.includes(key)) return control;
        return (
          <fieldset key={key} className="control-locked" disabled data-locked={key}>
            {control}
            <p className="control-lock-note">Fixed by this link</p>
          </fieldset>
        );
      })}
    </>
  );

  function controlFor(key: keyof S & string): ReactNode {
    const spec = params.schema[key];
    const onChange = (v: unknown) => params.set(key, v);
    switch (spec.kind) {
      case 'number':
        return <Slider key={key} name={key} spec={spec} value={values[key] as number} onChange={onChange} />;
      case 'select':
        return <Select key={key} name={key} spec={spec} value={values[key] as string} onChange={onChange} />;
      case 'boolean':
        return <Toggle key={key} name={key} spec={spec} value={values[key] as boolean} onChange={onChange} />;
      case 'seed':
        return (
          <SeedField key={key} name={key} spec={spec} value={values[key] as number} onChange={onChange} />
        );
    }
  }
}
