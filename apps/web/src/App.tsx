import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { useAuthStore } from "./features/auth/store";
import { useLogout } from "./features/auth/useLogout";
import { useProfileBootstrap } from "./features/auth/useProfileBootstrap";
import { LandingPage } from "./features/landing/LandingPage";
import { Footer } from "./ui/Footer";
import { NavBar } from "./ui/NavBar";
import { NotFoundPage } from "./ui/NotFoundPage";
import { ScrollToTop } from "./ui/ScrollToTop";
import { Spinner } from "./ui/Spinner";
import { Toasts } from "./ui/Toasts";

/** A page loaded on first visit to its route, from a module that exports it by name. */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

// Only the landing page and the shell ship in the entry; every other page is its own chunk,
// and the editor (Yjs, socket.io, Monaco) loads only when a session is opened.
const SignInPage = lazyPage(() => import("./features/auth/SignInPage"), "SignInPage");
const SignUpPage = lazyPage(() => import("./features/auth/SignUpPage"), "SignUpPage");
const AccountPage = lazyPage(() => import("./features/auth/AccountPage"), "AccountPage");
const MySessionsPage = lazyPage(() => import("./features/sessions/MySessionsPage"), "MySessionsPage");
const AuthCallbackPage = lazyPage(() => import("./features/auth/AuthCallbackPage"), "AuthCallbackPage");
const DocumentationPage = lazyPage(() => import("./features/docs/DocumentationPage"), "DocumentationPage");
const DocTopicRoute = lazy(() => import("./features/docs/DocTopicRoute"));
const BlogsPage = lazyPage(() => import("./features/info/BlogsPage"), "BlogsPage");
const AboutPage = lazyPage(() => import("./features/info/AboutPage"), "AboutPage");
const EditorPage = lazy(() => import("./features/editor/EditorPage"));
/** The editor's route; prerender.tsx draws the bare page (app.html) as it starts there. */
export const EDITOR_PATH = "/code-editor-dashboard";

function Loading({ label }: { label: string }) {
  return (
    <div className="page center-page">
      <Spinner /> <span className="visually-hidden">{label}</span>
    </div>
  );
}

function EditorRoute() {
  return (
    <Suspense fallback={<Loading label="Loading the editor" />}>
      <EditorPage />
    </Suspense>
  );
}

/** The nav bar with who is signed in (ui/ knows no feature: the auth state comes from here). */
function SiteNav() {
  const user = useAuthStore((s) => s.user);
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const logout = useLogout();
  return <NavBar userName={isAuthenticated ? user?.name || "User" : null} onLogout={logout} />;
}

/**
 * The page shell (skip link, nav, main, footer, toasts) and every route. `children` render
 * nothing visible: they sit with the page in its Suspense boundary (startApp's sign that a
 * prerendered page has hydrated). `isShell`: the frame around a page still loading, for the
 * build's app.html, which paints it before the script arrives.
 */
export function App({ children, isShell = false }: { children?: ReactNode; isShell?: boolean }) {
  useProfileBootstrap();
  // The editor fills the window under the nav bar, so it has no footer.
  const isEditor = useLocation().pathname.startsWith(EDITOR_PATH);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <SiteNav />
      <main id="main" tabIndex={-1} className={isEditor ? "main-editor" : undefined}>
        <Suspense fallback={<Loading label="Loading" />}>
          {isShell ? (
            <Loading label="Loading" />
          ) : (
            <Routes>
              <Route path="/" element={<LandingPage />} />
              <Route path="/signin" element={<SignInPage />} />
              <Route path="/signup" element={<SignUpPage />} />
              <Route path="/account" element={<AccountPage />} />
              <Route path="/my-sessions" element={<MySessionsPage />} />
              <Route path="/documentation" element={<DocumentationPage />} />
              <Route path="/blogs" element={<BlogsPage />} />
              <Route path="/About" element={<AboutPage />} />
              <Route path="/auth/callback" element={<AuthCallbackPage />} />
              <Route path={EDITOR_PATH} element={<EditorRoute />} />
              <Route path={`${EDITOR_PATH}/:sessionId`} element={<EditorRoute />} />
              {/* The documentation topics (/introduction, /apis, …); any other name is a 404. */}
              <Route path="/:topic" element={<DocTopicRoute />} />
              <Route path="*" element={<NotFoundPage />} />
            </Routes>
          )}
          {children}
        </Suspense>
      </main>
      {!isEditor && <Footer />}
      <Toasts />
    </>
  );
}
