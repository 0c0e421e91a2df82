import { Link } from './Link';

export function NotFound({ path }: { path: string }) {
  return (
    <main id="main" className="not-found">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. <Link href="/">Go to the course home</Link>.
      </p>
    </main>
  );
}
