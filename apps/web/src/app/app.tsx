import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { CategoriesProvider } from '../categories/categories';
import { LoginScreen } from '../screens/auth/login-screen';
import { RegisterScreen } from '../screens/auth/register-screen';
import { EntryScreen } from '../screens/catalog/entry-screen';
import { HomeScreen } from '../screens/home/home-screen';
import { SearchScreen } from '../screens/catalog/search-screen';
import { NotFoundScreen } from '../screens/not-found-screen';
import { ReauthDialog } from '../session/reauth-dialog';
import { Loading } from '../ui/status';
import { Layout } from './layout';
import { RequireAuth } from './require-auth';
import { ServicesProvider, type Services } from './services';

// Screens of a signed-in person load when first opened: the first visit (log in, browse) stays small.
const ListScreen = lazy(() => import('../screens/list/list-screen').then((m) => ({ default: m.ListScreen })));
const AddEntryScreen = lazy(() => import('../screens/catalog/add-entry-screen').then((m) => ({ default: m.AddEntryScreen })));
const AccountScreen = lazy(() => import('../screens/account/account-screen').then((m) => ({ default: m.AccountScreen })));
const ImportScreen = lazy(() => import('../screens/import/import-screen').then((m) => ({ default: m.ImportScreen })));
const StatsScreen = lazy(() => import('../screens/stats/stats-screen').then((m) => ({ default: m.StatsScreen })));
const DiaryScreen = lazy(() => import('../screens/plays/diary-screen').then((m) => ({ default: m.DiaryScreen })));
const ConnectionsScreen = lazy(() => import('../screens/connections/connections-screen').then((m) => ({ default: m.ConnectionsScreen })));
const TokensScreen = lazy(() => import('../screens/account/tokens-screen').then((m) => ({ default: m.TokensScreen })));

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
const SignedInDiary = signedIn(DiaryScreen);
const SignedInConnections = signedIn(ConnectionsScreen);

export function Routes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/" component={HomeScreen} />
        <Route path="/login" component={LoginScreen} />
        <Route path="/register" component={RegisterScreen} />
        <Route path="/account" component={SignedInAccount} />
        <Route path="/tokens" component={SignedInTokens} />
        <Route path="/connections" component={SignedInConnections} />
        <Route path="/connections/:server" component={SignedInConnections} />
        <Route path="/:category/list" component={SignedInList} />
        <Route path="/:category/new" component={SignedInAddEntry} />
        <Route path="/:category/import" component={SignedInImport} />
        <Route path="/:category/stats" component={SignedInStats} />
        <Route path="/:category/diary" component={SignedInDiary} />
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
