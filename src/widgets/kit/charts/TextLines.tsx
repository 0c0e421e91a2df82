/**
 * A label drawn in the lines `wrapLabel` broke it into: one line as plain text, several as tspans `lineHeight`
 * apart. `dy` shifts the first line as it would a one-line label. Category labels and legend items use it.
 */
import type { SVGProps } from 'react';

export function TextLines({
  lines,
  className,
  x,
  y,
  dy,
  lineHeight,
  ...text
}: {
  lines: readonly string[];
  className: string;
  x: number;
  y?: number;
  dy?: string | number;
  lineHeight: number;
} & Omit<SVGProps<SVGTextElement>, 'className' | 'x' | 'y' | 'dy'>) {
  if (lines.length === 1)
    return (
      <text className={className} x={x} y={y} dy={dy} {...text}>
        {lines[0]}
      </text>
    );
  return (
    <text className={className} x={x} y={y} {...text}>
      {lines.map((line, k) => (
        <tspan key={k} x={x} dy={k === 0 ? dy : lineHeight}>
          {line}
        </tspan>
      ))}
    </text>
  );
}
