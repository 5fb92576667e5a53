/**
 * The routing API of Cartable's frontends: import from "@cartable/ui/router", never from
 * "react-router" directly (the build refuses it outside libs/ui).
 *
 * Why: this module is the federated singleton for the router. Sharing the whole react-router
 * package would ship all of it (data routers, server rendering helpers...) to every visitor,
 * because a shared package cannot be tree-shaken: about 65 kB gzipped instead of about 16 kB for
 * what is re-exported here. Add an export here when a screen needs one.
 */
export {
  BrowserRouter,
  createSearchParams,
  generatePath,
  Link,
  type LinkProps,
  type Location,
  MemoryRouter,
  matchPath,
  Navigate,
  type NavigateFunction,
  NavLink,
  type NavLinkProps,
  Outlet,
  Route,
  Routes,
  UNSAFE_RouteContext,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useOutletContext,
  useParams,
  useResolvedPath,
  useSearchParams,
} from 'react-router';
