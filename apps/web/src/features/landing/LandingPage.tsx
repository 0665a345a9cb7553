import { DeveloperCard } from "./DeveloperCard";
import { Features } from "./Features";
import { Hero } from "./Hero";
import { HowItWorks } from "./HowItWorks";
import { Testimonials } from "./Testimonials";

/** The landing page at `/`. */
export function LandingPage() {
  return (
    <>
      <Hero />
      <Features />
      <HowItWorks />
      <Testimonials />
      <DeveloperCard />
    </>
  );
}
