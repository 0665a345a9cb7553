import { lazy, Suspense } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { Slide, ToastContainer } from "react-toastify/unstyled";
import { AccountPage } from "./features/auth/AccountPage";
import { AuthCallbackPage } from "./features/auth/AuthCallbackPage";
import { SignInPage } from "./features/auth/SignInPage";
import { SignUpPage } from "./features/auth/SignUpPage";
import { useProfileBootstrap } from "./features/auth/useProfileBootstrap";
import { DocTopicPage } from "./features/docs/DocTopicPage";
import { DocumentationPage } from "./features/docs/DocumentationPage";
import { DOC_TOPICS, topicPath } from "./features/docs/topics";
import { AboutPage } from "./features/info/AboutPage";
import { BlogsPage } from "./features/info/BlogsPage";
import { LandingPage } from "./features/landing/LandingPage";
import { Footer } from "./ui/Footer";
import { NavBar } from "./ui/NavBar";
import { NotFoundPage } from "./ui/NotFoundPage";
import { ScrollToTop } from "./ui/ScrollToTop";
import { Spinner } from "./ui/Spinner";

// The editor (Yjs, socket.io, Monaco) is loaded only when a session is opened.
const EditorPage = lazy(() => import("./features/editor/EditorPage"));
const EDITOR_PATH = "/code-editor-dashboard";

function EditorRoute() {
  return (
    <Suspense
      fallback={
        <div className="page center-page">
          <Spinner /> <span className="visually-hidden">Loading the editor</span>
        </div>
      }
    >
      <EditorPage />
    </Suspense>
  );
}

/** The page shell (skip link, nav, main, footer, toasts) and every route. */
export function App() {
  useProfileBootstrap();
  // The editor fills the window under the nav bar, so it has no footer.
  const isEditor = useLocation().pathname.startsWith(EDITOR_PATH);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <NavBar />
      <main id="main" tabIndex={-1} className={isEditor ? "main-editor" : undefined}>
        <Routes>
          <Route path="/" element={<LandingPage />} />
          <Route path="/signin" element={<SignInPage />} />
          <Route path="/signup" element={<SignUpPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/documentation" element={<DocumentationPage />} />
          {DOC_TOPICS.map((topic) => (
            <Route key={topic.title} path={topicPath(topic.title)} element={<DocTopicPage topic={topic} />} />
          ))}
          <Route path="/blogs" element={<BlogsPage />} />
          <Route path="/About" element={<AboutPage />} />
          <Route path="/auth/callback" element={<AuthCallbackPage />} />
          <Route path={EDITOR_PATH} element={<EditorRoute />} />
          <Route path={`${EDITOR_PATH}/:sessionId`} element={<EditorRoute />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
      {!isEditor && <Footer />}
      <ToastContainer position="top-right" autoClose={5000} theme="dark" transition={Slide} />
    </>
  );
}
