import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { CategoriesProvider, useCategories } from '../categories/categories';
import { LoginScreen } from '../screens/auth/login-screen';
import { RegisterScreen } from '../screens/auth/register-screen';
import { EntryScreen } from '../screens/catalog/entry-screen';
import { SearchScreen } from '../screens/catalog/search-screen';
import { NotFoundScreen } from '../screens/not-found-screen';
import { ReauthDialog } from '../session/reauth-dialog';
import { FormError } from '../ui/field';
import { EmptyState, Loading } from '../ui/status';
import { Layout } from './layout';
import { RequireAuth } from './require-auth';
import { ScreenTitle } from './screen-title';
import { ServicesProvider, useSession, type Services } from './services';

// Screens of a signed-in person load when first opened: the first visit (log in, browse) stays small.
const ListScreen = lazy(() => import('../screens/list/list-screen').then((m) => ({ default: m.ListScreen })));
const AddEntryScreen = lazy(() => import('../screens/catalog/add-entry-screen').then((m) => ({ default: m.AddEntryScreen })));
const AccountScreen = lazy(() => import('../screens/account/account-screen').then((m) => ({ default: m.AccountScreen })));
const ImportScreen = lazy(() => import('../screens/import/import-screen').then((m) => ({ default: m.ImportScreen })));
const StatsScreen = lazy(() => import('../screens/stats/stats-screen').then((m) => ({ default: m.StatsScreen })));
const TokensScreen = lazy(() => import('../screens/account/tokens-screen').then((m) => ({ default: m.TokensScreen })));

/** `/`: your list of the first category when signed in, else its catalog. */
function Home() {
  const { categories, loading, error, reload } = useCategories();
  const session = useSession();
  if (loading) return <Loading />;
  if (error)
    return (
      <section>
        <ScreenTitle title="Unavailable">Media Tracker</ScreenTitle>
        <FormError error={`The categories could not be loaded: ${error}`} />
        <button type="button" className="button" onClick={reload}>
          Try again
        </button>
      </section>
    );
  const first = categories[0];
  if (!first)
    return (
      <section>
        <ScreenTitle title="No categories">Media Tracker</ScreenTitle>
        <EmptyState title="No category is available right now.">
          <p>The catalog services may still be starting.</p>
          <button type="button" className="button" onClick={reload}>
            Try again
          </button>
        </EmptyState>
      </section>
    );
  return <Redirect to={session ? `/${first.id}/list` : `/${first.id}`} replace />;
}

const signedIn = (Screen: ComponentType) =>
  function SignedIn() {
    return (
      <RequireAuth>
        <Screen />
      </RequireAuth>
    );
  };

const SignedInAccount = signedIn(AccountScreen);
const SignedInTokens = signedIn(TokensScreen);
const SignedInList = signedIn(ListScreen);
const SignedInAddEntry = signedIn(AddEntryScreen);
const SignedInImport = signedIn(ImportScreen);
const SignedInStats = signedIn(StatsScreen);

export function Routes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/" component={Home} />
        <Route path="/login" component={LoginScreen} />
        <Route path="/register" component={RegisterScreen} />
        <Route path="/account" component={SignedInAccount} />
        <Route path="/tokens" component={SignedInTokens} />
        <Route path="/:category/list" component={SignedInList} />
        <Route path="/:category/new" component={SignedInAddEntry} />
        <Route path="/:category/import" component={SignedInImport} />
        <Route path="/:category/stats" component={SignedInStats} />
        <Route path="/:category/:id" component={EntryScreen} />
        <Route path="/:category" component={SearchScreen} />
        <Route>
          <NotFoundScreen />
        </Route>
      </Switch>
    </Suspense>
  );
}

export function App({ services }: { services: Services }) {
  return (
    <ServicesProvider services={services}>
      <CategoriesProvider>
        <Layout>
          <Routes />
        </Layout>
        <ReauthDialog />
      </CategoriesProvider>
    </ServicesProvider>
  );
}
