/** Marketing copy of the landing page, kept apart from layout so it can change alone. */

export interface Step {
  title: string;
  text: string;
}

/** The four 'How it Works' steps (spec §1). */
export const STEPS: readonly Step[] = [
  {
    title: "Sign in or sign up",
    text: "Create an account with a few basic details, or continue with your GitHub login.",
  },
  {
    title: "Create a session",
    text: "Start a session and work alone or invite collaborators: real-time coding with audio and video built in.",
  },
  {
    title: "Connect with your team",
    text: "Talk it through on audio and video calls without leaving the editor.",
  },
  {
    title: "Review and merge",
    text: "Collaborators raise pull requests; the host is notified, reviews the diff, and can approve and merge the code.",
  },
];

export interface Testimonial {
  id: number;
  name: string;
  role: string;
  content: string;
  image: string;
}

/** Sample testimonials (marketing sample content, spec §3). */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    id: 1,
    name: "Maya Chen",
    role: "Staff Engineer, Northwind Labs",
    content:
      "We replaced screen-share pairing with Ensemble. Everyone types in the same file, and the pull request flow keeps the host in control.",
    image: "/images/testimonial-1.svg",
  },
  {
    id: 2,
    name: "Daniel Okafor",
    role: "CS Instructor, Lakeside University",
    content:
      "My students join a session with one link. I watch their cursors, jump in on a call, and we debug together in real time.",
    image: "/images/testimonial-2.svg",
  },
  {
    id: 3,
    name: "Sofia Marquez",
    role: "Founder, Brightline Studio",
    content:
      "Interviews, code reviews and hack days all happen in one tab now. Audio, video and the editor just work together.",
    image: "/images/testimonial-3.svg",
  },
];

/** The 'Meet the Developer' card (spec §3). */
export const DEVELOPER = {
  id: 1,
  name: "Arjun Rao",
  role: "DevOps and backend",
  bio: "Builds the real-time sync, the sandboxed runner and the deployment pipeline behind Ensemble. Happiest when a deploy is boring and a merge conflict never happens.",
  image: "/images/developer.svg",
} as const;
