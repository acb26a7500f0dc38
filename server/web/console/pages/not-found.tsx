/** An address the console does not know. */
import { PageHeader } from '../components.js';
import { AuthFrame } from '../frame.js';

export function NotFoundPage(props: { hash: string }) {
  return (
    <AuthFrame>
      <PageHeader title="Page not found" />
      <p>
        The console has no page at <code>#{props.hash}</code>. <a href="#/">Go to your projects</a>.
      </p>
    </AuthFrame>
  );
}
