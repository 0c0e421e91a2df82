/** Renders one control per parameter of a widget's schema, in declaration order. */
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
  const keys = (only ?? Object.keys(params.schema)) as (keyof S & string)[];
  const values = params.values as Record<string, unknown>;
  return (
    <>
      {keys.map((key) => {
        const spec = params.schema[key];
        const onChange = (v: unknown) => params.set(key, v);
        switch (spec.kind) {
          case 'number':
            return (
              <Slider key={key} name={key} spec={spec} value={values[key] as number} onChange={onChange} />
            );
          case 'select':
            return (
              <Select key={key} name={key} spec={spec} value={values[key] as string} onChange={onChange} />
            );
          case 'boolean':
            return (
              <Toggle key={key} name={key} spec={spec} value={values[key] as boolean} onChange={onChange} />
            );
          case 'seed':
            return (
              <SeedField key={key} name={key} spec={spec} value={values[key] as number} onChange={onChange} />
            );
        }
      })}
    </>
  );
}
