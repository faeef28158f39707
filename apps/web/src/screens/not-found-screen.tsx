import { Link } from 'wouter';
import { ScreenTitle } from '../app/screen-title';
import { useCategories } from '../categories/categories';
import { FormError } from '../ui/field';
import { Loading } from '../ui/status';

/** An unknown page, or a category the gateway does not route (or not yet: categories still loading). */
export function NotFoundScreen({ what = 'page', loadingCategories = false }: { what?: string; loadingCategories?: boolean }) {
  const { loading, error, reload } = useCategories();
  if (loadingCategories && loading) return <Loading />;
  if (loadingCategories && error)
    return (
      <section>
        <ScreenTitle title="Categories unavailable">Categories unavailable</ScreenTitle>
        <FormError error={error} />
        <button type="button" className="button" onClick={reload}>
          Try again
        </button>
      </section>
    );
  return (
    <section>
      <ScreenTitle title="Not found">Not found</ScreenTitle>
      <p>There is no such {what} here.</p>
      <p>
        <Link href="/">Go to the start page</Link>
      </p>
    </section>
  );
}
