/** A documentation topic: its card on /documentation and its own short page. */
export interface DocTopic {
  title: string;
  summary: string;
  sections: readonly { heading: string; body: string }[];
}

/** The six cards of the spec (§2), with the content of their pages. */
export const DOC_TOPICS: readonly DocTopic[] = [
  {
    title: "Introduction",
    summary: "What Ensemble is and how sessions, hosts and collaborators fit together.",
    sections: [
      {
        heading: "Sessions",
        body: "Everything happens in a session: a shared workspace identified by its session ID. Whoever creates it is the host; everyone who joins with the link or ID is a collaborator.",
      },
      {
        heading: "Roles and access",
        body: "The host decides who may do what. Editors change the code, run it and propose pull requests; viewers watch everything live and change nothing, with a View only marker over their editor. From the participants list the host changes someone's role on the spot, hands the host role over, or removes them. Share links gives two links, can edit and can view; once a view link exists, the bare session ID lets newcomers view only. Lock session keeps newcomers in a lobby until the host admits or refuses each; people already in the session come back in freely, and someone removed stays out while it is locked.",
      },
      {
        heading: "Working together",
        body: "Collaborators edit the same files at the same time and see each other's cursors. Audio and video calls run beside the editor, and changes are proposed to the host as pull requests.",
      },
    ],
  },
  {
    title: "Installation",
    summary: "Nothing to install for users; one command to run your own server.",
    sections: [
      {
        heading: "In the browser",
        body: "Ensemble runs in any current browser. Sign up, press Start Building, and share the session link.",
      },
      {
        heading: "Self-hosting",
        body: "Clone the repository, run npm install, then npm run build and npm start. With no configuration the server keeps its data in an embedded PostgreSQL in a local folder.",
      },
    ],
  },
  {
    title: "APIs",
    summary: "The REST endpoints behind accounts and sessions.",
    sections: [
      {
        heading: "Accounts",
        body: "POST /api/auth/register and POST /api/auth/login return a token; send it as a Bearer authorization header. GET /api/getuser returns the signed-in user.",
      },
      {
        heading: "Sessions",
        body: "POST /api/session/create starts a session and returns its link; POST /api/session/join joins one by ID; GET /api/session/{id} lists its participants to a participant's token, and shows anyone else only its title.",
      },
    ],
  },
  {
    title: "Integrations",
    summary: "Sign in with GitHub and publish merged work to a repository.",
    sections: [
      {
        heading: "GitHub login",
        body: "When the server is configured for it, 'or continue with GitHub' signs you in without a password.",
      },
      {
        heading: "Repositories",
        body: "A host can connect a GitHub repository; approved pull requests are then pushed as a branch and opened as a GitHub pull request.",
      },
    ],
  },
  {
    title: "Utilities",
    summary: "Run code, share a terminal, chat, replay and review changes.",
    sections: [
      {
        heading: "Run code",
        body: "JavaScript and Python run in an isolated sandbox on the server; the output appears, as the program writes it, in a terminal every participant sees. While a program runs, Run Code becomes Stop for everyone (or press Ctrl+C in the terminal). The person who started it can type into it: the terminal's prompt turns to › and each line goes to the program, Ctrl+D ends its input, and Let everyone type lets the other editors answer too.",
      },
      {
        heading: "Errors on the lines",
        body: "When a run fails to compile or ends with an error, the lines it names are underlined in every participant's editor, in each file they concern; hover over one to read the message. They stay until the next run starts.",
      },
      {
        heading: "Version control",
        body: "Each session has a git repository. The host can commit, branch and merge; collaborators raise pull requests for review.",
      },
      {
        heading: "Chat",
        body: "The chat button in the editor's top bar opens the session chat; its badge counts messages you have not seen. Enter sends, Shift+Enter starts a new line; messages are plain text of up to 2000 characters, kept with the session, so anyone who joins later or reloads reads the conversation. Once the host ends the session the chat can still be read but takes no new messages.",
      },
      {
        heading: "Replay",
        body: "The replay button in the editor's top bar opens the session's history over the editor: drag the slider to any moment, or play it at up to 50 times its speed, to see every file as it was then, each person's typing underlined in their colour, with the runs and pull requests up to then. Ended sessions replay too. The host can restore the moment shown: the files come back as a new edit everyone receives, and the history keeps everything before it.",
      },
    ],
  },
  {
    title: "Web",
    summary: "Browser support, keyboard shortcuts and accessibility.",
    sections: [
      {
        heading: "Browsers",
        body: "Use a current Chrome, Edge, Firefox or Safari. Calls need camera and microphone permission, asked for only when you start one.",
      },
      {
        heading: "Keyboard",
        body: "Every page works from the keyboard: Tab moves between controls, Escape closes dialogs and menus.",
      },
    ],
  },
];

/** The route of a topic: '/' plus its lowercased title without spaces (spec §2). */
export function topicPath(title: string): string {
  return `/${title.toLowerCase().replace(/\s+/g, "")}`;
}
