/** Elements and components available to every lesson without an import. */
import type { ComponentProps } from 'react';
import { Callout, Recap, Remember } from '../lessons-kit/Boxes';
import { Link } from './Link';
import { StageHeading } from './StageHeading';
import { Tour, TourStep } from '../lessons-kit/Tour';
import { Term } from './glossary/Term';

function MdxLink({ href = '', ...rest }: ComponentProps<'a'>) {
  if (href.startsWith('/')) return <Link href={href} {...rest} />;
  if (href.startsWith('#')) return <a href={href} {...rest} />;
  return <a href={href} rel="noreferrer" target="_blank" {...rest} />;
}

export const mdxComponents = {
  a: MdxLink,
  h2: StageHeading,
  Recap,
  Callout,
  Remember,
  Tour,
  TourStep,
  Term,
};
