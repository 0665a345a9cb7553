import { Route, Routes } from "react-router-dom";
import { Slide, ToastContainer } from "react-toastify/unstyled";
import { AccountPage } from "./features/auth/AccountPage";
import { AuthCallbackPage } from "./features/auth/AuthCallbackPage";
import { SignInPage } from "./features/auth/SignInPage";
import { SignUpPage } from "./features/auth/SignUpPage";
import { useProfileBootstrap } from "./features/auth/useProfileBootstrap";
import { DocTopicPage } from "./features/docs/DocTopicPage";
import { DocumentationPage } from "./features/docs/DocumentationPage";
import { DOC_TOPICS, topicPath } from "./features/docs/topics";
import { EditorPlaceholderPage } from "./features/editor/EditorPlaceholderPage";
import { AboutPage } from "./features/info/AboutPage";
import { BlogsPage } from "./features/info/BlogsPage";
import { LandingPage } from "./features/landing/LandingPage";
import { Footer } from "./ui/Footer";
import { NavBar } from "./ui/NavBar";
import { NotFoundPage } from "./ui/NotFoundPage";
import { ScrollToTop } from "./ui/ScrollToTop";

/** The page shell (skip link, nav, main, footer, toasts) and every route. */
export function App() {
  useProfileBootstrap();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ScrollToTop />
      <NavBar />
      <main id="main" tabIndex={-1}>
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
          <Route path="/code-editor-dashboard" element={<EditorPlaceholderPage />} />
          <Route path="/code-editor-dashboard/:sessionId" element={<EditorPlaceholderPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
      <Footer />
      <ToastContainer position="top-right" autoClose={5000} theme="dark" transition={Slide} />
    </>
  );
}
